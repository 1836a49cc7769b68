# Offline stand-in for registry.coder.com/coder/code-server/coder 1.5.2: the same inputs
# (types and defaults) and outputs, no agent script. terraform_data.inputs records what the
# template passed.

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

variable "display_name" {
  type    = string
  default = "code-server"
}

variable "slug" {
  type    = string
  default = "code-server"
}

variable "install_prefix" {
  type    = string
  default = "/tmp/code-server"
}

variable "log_path" {
  type    = string
  default = "/tmp/code-server.log"
}

variable "use_cached_extensions" {
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

variable "additional_args" {
  type    = string
  default = ""
}


resource "terraform_data" "inputs" {
  input = {
    agent_id                = var.agent_id
    folder                  = var.folder
    workspace               = var.workspace
    port                    = var.port
    install_version         = var.install_version
    extensions              = var.extensions
    settings                = jsonencode(var.settings)
    machine_settings        = jsonencode(var.machine_settings)
    subdomain               = var.subdomain
    offline                 = var.offline
    use_cached              = var.use_cached
    share                   = var.share
    order                   = var.order
    group                   = var.group
    open_in                 = var.open_in
    display_name            = var.display_name
    slug                    = var.slug
    install_prefix          = var.install_prefix
    log_path                = var.log_path
    use_cached_extensions   = var.use_cached_extensions
    extensions_dir          = var.extensions_dir
    auto_install_extensions = var.auto_install_extensions
    additional_args         = var.additional_args
  }
}
