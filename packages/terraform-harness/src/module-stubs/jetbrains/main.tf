# Offline stand-in for registry.coder.com/coder/jetbrains/coder 1.4.0: the same inputs (types,
# defaults, the rules on folder, channel and options) and outputs, and the IDE picker
# parameter it adds when no IDE is preselected. No JetBrains API lookup (the real module reads
# build numbers over HTTP at plan time) and no apps; terraform_data.inputs records what the
# template passed.

terraform {
  required_providers {
    coder = {
      source = "coder/coder"
    }
  }
}

variable "agent_id" {
  type = string
}

variable "agent_name" {
  type    = string
  default = null
}

variable "folder" {
  type = string
  validation {
    condition     = can(regex("^(?:/[^/]+)+/?$", var.folder))
    error_message = "folder must be an absolute path."
  }
}

variable "default" {
  type    = set(string)
  default = []
}

variable "group" {
  type    = string
  default = null
}

variable "coder_app_order" {
  type    = number
  default = null
}

variable "coder_parameter_order" {
  type    = number
  default = null
}

variable "tooltip" {
  type    = string
  default = "Needs the JetBrains Toolbox App."
}

variable "major_version" {
  type    = string
  default = "latest"
}

variable "channel" {
  type    = string
  default = "release"
  validation {
    condition     = contains(["release", "eap"], var.channel)
    error_message = "channel must be release or eap."
  }
}

variable "options" {
  type    = set(string)
  default = ["CL", "GO", "IU", "PS", "PY", "RD", "RM", "RR", "WS"]
  validation {
    condition     = length(var.options) > 0 && alltrue([for code in var.options : contains(["CL", "GO", "IU", "PS", "PY", "RD", "RM", "RR", "WS"], code)])
    error_message = "options must be a non-empty set of JetBrains product codes."
  }
}

variable "releases_base_link" {
  type    = string
  default = "https://data.services.jetbrains.com"
}

variable "download_base_link" {
  type    = string
  default = "https://download.jetbrains.com"
}

variable "ide_config" {
  type = map(object({
    build = string
    name  = optional(string)
    icon  = optional(string)
  }))
  default = null
}

# The real module's picker: a multi-select of var.options, shown only without var.default.
data "coder_parameter" "jetbrains_ides" {
  count        = length(var.default) == 0 ? 1 : 0
  type         = "list(string)"
  name         = "jetbrains_ides"
  display_name = "JetBrains IDEs"
  icon         = "/icon/jetbrains-toolbox.svg"
  mutable      = true
  default      = jsonencode([])
  order        = var.coder_parameter_order
  form_type    = "multi-select"
  dynamic "option" {
    for_each = var.options
    content {
      name  = option.value
      value = option.value
    }
  }
}

resource "terraform_data" "inputs" {
  input = {
    agent_id              = var.agent_id
    agent_name            = var.agent_name
    folder                = var.folder
    default               = var.default
    group                 = var.group
    coder_app_order       = var.coder_app_order
    coder_parameter_order = var.coder_parameter_order
    major_version         = var.major_version
    channel               = var.channel
    options               = var.options
  }
}

output "ide_metadata" {
  value = {
    for code in(length(var.default) > 0 ? var.default : toset(jsondecode(data.coder_parameter.jetbrains_ides[0].value))) : code => { name = code }
  }
}
