# Offline stand-in for registry.coder.com/coder/vscode-web/coder 1.6.1: the same inputs (types
# and defaults) and outputs, no agent script. terraform_data.inputs records what the template
# passed, so plan tests can assert on it. Inputs beyond these are rejected, as Terraform would.

variable "agent_id" {
  type = string
}

variable "accept_license" {
  type    = bool
  default = false
  validation {
    condition     = var.accept_license == true
    error_message = "You must accept the VS Code license agreement by setting accept_license=true."
  }
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
  default = 13338
}

variable "subdomain" {
  type    = bool
  default = true
}

variable "extensions" {
  type    = list(string)
  default = []
}

variable "settings" {
  type    = any
  default = {}
}

variable "install_prefix" {
  type    = string
  default = "/tmp/vscode-web"
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

variable "platform" {
  type    = string
  default = ""
}

variable "display_name" {
  type    = string
  default = "VS Code Web"
}

variable "slug" {
  type    = string
  default = "vscode-web"
}

variable "log_path" {
  type    = string
  default = "/tmp/vscode-web.log"
}

variable "commit_id" {
  type    = string
  default = ""
}

variable "telemetry_level" {
  type    = string
  default = "error"
  validation {
    condition     = contains(["off", "crash", "error", "all"], var.telemetry_level)
    error_message = "telemetry_level must be off, crash, error or all."
  }
}

variable "disable_trust" {
  type    = bool
  default = false
}

variable "extensions_dir" {
  type    = string
  default = ""
}

variable "auto_install_extensions" {
  type    = bool
  default = false
}


resource "terraform_data" "inputs" {
  input = {
    agent_id                = var.agent_id
    accept_license          = var.accept_license
    folder                  = var.folder
    workspace               = var.workspace
    port                    = var.port
    subdomain               = var.subdomain
    extensions              = var.extensions
    settings                = jsonencode(var.settings)
    install_prefix          = var.install_prefix
    offline                 = var.offline
    use_cached              = var.use_cached
    share                   = var.share
    order                   = var.order
    group                   = var.group
    open_in                 = var.open_in
    platform                = var.platform
    display_name            = var.display_name
    slug                    = var.slug
    log_path                = var.log_path
    commit_id               = var.commit_id
    telemetry_level         = var.telemetry_level
    disable_trust           = var.disable_trust
    extensions_dir          = var.extensions_dir
    auto_install_extensions = var.auto_install_extensions
  }
}
