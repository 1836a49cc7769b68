# Offline stand-in for registry.coder.com/coder/jetbrains-gateway/coder 1.2.1: the same
# inputs (types, defaults, the rules on folder, arch, channel, the product codes and the
# base links) and outputs, the IDE picker parameter it adds, and its external app. No
# JetBrains API lookup (the real module reads release data over HTTP when `latest` is set);
# the build numbers come from jetbrains_ide_versions. terraform_data.inputs records what the
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

# Accepted and ignored by 1.2.1 (the module documents it as unused).
variable "agent_name" {
  type    = string
  default = ""
}

variable "arch" {
  type    = string
  default = "amd64"
  validation {
    condition     = contains(["amd64", "arm64"], var.arch)
    error_message = "arch must be amd64 or arm64."
  }
}

variable "slug" {
  type    = string
  default = "gateway"
}

variable "folder" {
  type = string
  validation {
    condition     = can(regex("^(?:/[^/]+)+/?$", var.folder))
    error_message = "folder must be an absolute path."
  }
}

variable "default" {
  type    = string
  default = ""
}

variable "order" {
  type    = number
  default = null
}

variable "group" {
  type    = string
  default = null
}

variable "embed_agent_id" {
  type    = bool
  default = false
}

variable "coder_parameter_order" {
  type    = number
  default = null
}

variable "latest" {
  type    = bool
  default = false
}

variable "channel" {
  type    = string
  default = "release"
  validation {
    condition     = contains(["release", "eap"], var.channel)
    error_message = "channel must be release or eap."
  }
}

variable "jetbrains_ide_versions" {
  type = map(object({
    build_number = string
    version      = string
  }))
  # One entry per product code; the stub's numbers only keep the shape.
  default = {
    CL = { build_number = "0.0.0", version = "0" }
    GO = { build_number = "0.0.0", version = "0" }
    IU = { build_number = "0.0.0", version = "0" }
    PS = { build_number = "0.0.0", version = "0" }
    PY = { build_number = "0.0.0", version = "0" }
    RD = { build_number = "0.0.0", version = "0" }
    RM = { build_number = "0.0.0", version = "0" }
    RR = { build_number = "0.0.0", version = "0" }
    WS = { build_number = "0.0.0", version = "0" }
  }
  validation {
    condition     = alltrue([for code in keys(var.jetbrains_ide_versions) : contains(["CL", "GO", "IU", "PS", "PY", "RD", "RM", "RR", "WS"], code)])
    error_message = "jetbrains_ide_versions must be keyed by JetBrains product codes."
  }
}

variable "jetbrains_ides" {
  type    = list(string)
  default = ["IU", "PS", "WS", "PY", "CL", "GO", "RM", "RD", "RR"]
  validation {
    condition     = alltrue([for code in var.jetbrains_ides : contains(["CL", "GO", "IU", "PS", "PY", "RD", "RM", "RR", "WS"], code)])
    error_message = "jetbrains_ides must hold JetBrains product codes."
  }
  validation {
    condition     = length(var.jetbrains_ides) > 0
    error_message = "jetbrains_ides must not be empty."
  }
  validation {
    condition     = length(var.jetbrains_ides) == length(toset(var.jetbrains_ides))
    error_message = "jetbrains_ides must not hold a code twice."
  }
}

variable "releases_base_link" {
  type    = string
  default = "https://data.services.jetbrains.com"
  validation {
    condition     = can(regex("^https?://.+$", var.releases_base_link))
    error_message = "releases_base_link must be an http(s) address."
  }
}

variable "download_base_link" {
  type    = string
  default = "https://download.jetbrains.com"
  validation {
    condition     = can(regex("^https?://.+$", var.download_base_link))
    error_message = "download_base_link must be an http(s) address."
  }
}

# The real module's picker: one IDE of var.jetbrains_ides, var.default (or the first) preselected.
data "coder_parameter" "jetbrains_ide" {
  type         = "string"
  name         = "jetbrains_ide"
  display_name = "JetBrains IDE"
  icon         = "/icon/gateway.svg"
  mutable      = true
  default      = var.default == "" ? var.jetbrains_ides[0] : var.default
  order        = var.coder_parameter_order
  dynamic "option" {
    for_each = var.jetbrains_ides
    content {
      name  = option.value
      value = option.value
    }
  }
}

# The real module's button: an external jetbrains-gateway:// link. The stub keeps its shape,
# not its query (workspace, owner, token and download link).
resource "coder_app" "gateway" {
  agent_id     = var.agent_id
  slug         = var.slug
  display_name = data.coder_parameter.jetbrains_ide.value
  icon         = "/icon/gateway.svg"
  external     = true
  order        = var.order
  group        = var.group
  url          = "jetbrains-gateway://connect#type=coder&ide_product_code=${data.coder_parameter.jetbrains_ide.value}"
}

resource "terraform_data" "inputs" {
  input = {
    agent_id              = var.agent_id
    arch                  = var.arch
    slug                  = var.slug
    folder                = var.folder
    default               = var.default
    order                 = var.order
    group                 = var.group
    embed_agent_id        = var.embed_agent_id
    coder_parameter_order = var.coder_parameter_order
    latest                = var.latest
    channel               = var.channel
    jetbrains_ides        = var.jetbrains_ides
  }
}

output "identifier" {
  value = data.coder_parameter.jetbrains_ide.value
}

output "display_name" {
  value = data.coder_parameter.jetbrains_ide.value
}

output "icon" {
  value = "/icon/gateway.svg"
}

output "download_link" {
  value = "${var.download_base_link}/${data.coder_parameter.jetbrains_ide.value}"
}

output "build_number" {
  value = var.jetbrains_ide_versions[data.coder_parameter.jetbrains_ide.value].build_number
}

output "version" {
  value = var.jetbrains_ide_versions[data.coder_parameter.jetbrains_ide.value].version
}

output "url" {
  value = coder_app.gateway.url
}
