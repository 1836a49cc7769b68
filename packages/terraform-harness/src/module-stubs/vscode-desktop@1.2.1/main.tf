# Offline stand-in for registry.coder.com/coder/vscode-desktop/coder 1.2.1: the same inputs
# and outputs. terraform_data.inputs records what the template passed.

variable "agent_id" {
  type = string
}

variable "folder" {
  type    = string
  default = ""
}

variable "open_recent" {
  type    = bool
  default = false
}

variable "order" {
  type    = number
  default = null
}

variable "group" {
  type    = string
  default = null
}

resource "terraform_data" "inputs" {
  input = {
    agent_id    = var.agent_id
    folder      = var.folder
    open_recent = var.open_recent
    order       = var.order
    group       = var.group
  }
}

# The real module builds a vscode:// link from the workspace and agent; the stub only keeps
# its shape.
output "vscode_url" {
  value = "vscode://coder.coder-remote/open?folder=${var.folder}"
}
