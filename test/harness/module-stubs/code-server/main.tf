# Offline stand-in for registry.coder.com/coder/code-server/coder 1.5.2: the same inputs
# (types and defaults), no agent script. terraform_data.inputs records what the template passed.

variable "agent_id" {
  type = string
}

variable "folder" {
  type    = string
  default = ""
}

variable "workspace" {
  type    = string
  default = ""
}

variable "port" {
  type    = number
  default = 13337
}

variable "install_version" {
  type    = string
  default = ""
}

variable "extensions" {
  type    = list(string)
  default = []
}

variable "settings" {
  type    = any
  default = {}
}

variable "machine_settings" {
  type    = any
  default = {}
}

variable "subdomain" {
  type    = bool
  default = false
}

variable "offline" {
  type    = bool
  default = false
}

variable "use_cached" {
  type    = bool
  default = false
}

variable "share" {
  type    = string
  default = "owner"
}

variable "order" {
  type    = number
  default = null
}

variable "group" {
  type    = string
  default = null
}

variable "open_in" {
  type    = string
  default = "slim-window"
}

resource "terraform_data" "inputs" {
  input = {
    agent_id         = var.agent_id
    folder           = var.folder
    workspace        = var.workspace
    port             = var.port
    install_version  = var.install_version
    extensions       = var.extensions
    settings         = jsonencode(var.settings)
    machine_settings = jsonencode(var.machine_settings)
    subdomain        = var.subdomain
    offline          = var.offline
    use_cached       = var.use_cached
    share            = var.share
    order            = var.order
    group            = var.group
    open_in          = var.open_in
  }
}
