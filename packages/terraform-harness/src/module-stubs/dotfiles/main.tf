# Offline stand-in for registry.coder.com/coder/dotfiles/coder 1.4.2: the same inputs (types,
# defaults and the rules on the URL, branch and user), the two workspace parameters it adds
# when the template does not fix the URL or the branch, its start script (which runs
# `coder dotfiles` in the real module; here it only names what it would apply), the
# optional "Refresh Dotfiles" app, and the dotfiles_uri output. terraform_data.inputs records
# what the template passed.

terraform {
  required_providers {
    coder = {
      source = "coder/coder"
    }
  }
}

variable "order" {
  type    = number
  default = null
}

variable "group" {
  type    = string
  default = null
}

variable "agent_id" {
  type = string
}

variable "description" {
  type    = string
  default = "Enter a URL for a [dotfiles repository](https://dotfiles.github.io) to personalize your workspace. Use an SSH URL (e.g. `git@host:user/repo`) if your Git provider restricts HTTPS cloning."
}

variable "default_dotfiles_uri" {
  type    = string
  default = ""

  validation {
    condition     = var.default_dotfiles_uri == "" || can(regex("^(https?://|ssh://|git@|git://)[a-zA-Z0-9._/:@~-]+$", var.default_dotfiles_uri))
    error_message = "Must be a valid dotfiles repository URL (https, git@, or git://) without special characters."
  }
}

variable "default_dotfiles_branch" {
  type    = string
  default = ""
}

variable "dotfiles_uri" {
  type    = string
  default = null

  validation {
    condition     = var.dotfiles_uri == null || var.dotfiles_uri == "" || can(regex("^(https?://|ssh://|git@|git://)[a-zA-Z0-9._/:@~-]+$", var.dotfiles_uri))
    error_message = "Must be a valid dotfiles repository URL (https, git@, or git://) without special characters."
  }
}

variable "dotfiles_branch" {
  type    = string
  default = null

  validation {
    condition     = var.dotfiles_branch == null || var.dotfiles_branch != ""
    error_message = "dotfiles_branch cannot be an empty string. Use null to prompt the user or provide a valid branch name."
  }
}

variable "user" {
  type    = string
  default = null

  validation {
    condition     = var.user == null || can(regex("^[a-zA-Z_][a-zA-Z0-9_-]*$", var.user))
    error_message = "Must be a valid username without special characters."
  }
}

variable "coder_parameter_order" {
  type    = number
  default = null
}

variable "manual_update" {
  type    = bool
  default = false
}

variable "post_clone_script" {
  type    = string
  default = null
}

data "coder_parameter" "dotfiles_uri" {
  count        = var.dotfiles_uri == null ? 1 : 0
  type         = "string"
  name         = "dotfiles_uri"
  display_name = "Dotfiles URL"
  order        = var.coder_parameter_order
  default      = var.default_dotfiles_uri
  description  = var.description
  mutable      = true
  icon         = "/icon/dotfiles.svg"

  validation {
    regex = "^$|^(https?://|ssh://|git@|git://)[a-zA-Z0-9._/:@~-]+$"
    error = "Must be a valid dotfiles repository URL (https, git@, or git://) without special characters."
  }
}

data "coder_parameter" "dotfiles_branch" {
  count        = var.dotfiles_branch == null ? 1 : 0
  type         = "string"
  name         = "dotfiles_branch"
  display_name = "Dotfiles Branch"
  order        = var.coder_parameter_order
  default      = var.default_dotfiles_branch
  description  = "The branch to use for the dotfiles repository"
  mutable      = true
  icon         = "/icon/dotfiles.svg"
}

locals {
  dotfiles_uri    = var.dotfiles_uri != null ? var.dotfiles_uri : data.coder_parameter.dotfiles_uri[0].value
  dotfiles_branch = var.dotfiles_branch != null ? var.dotfiles_branch : data.coder_parameter.dotfiles_branch[0].value
}

resource "coder_script" "dotfiles" {
  agent_id     = var.agent_id
  display_name = "Dotfiles"
  icon         = "/icon/dotfiles.svg"
  run_on_start = true
  script       = "#!/usr/bin/env bash\n# stub: coder dotfiles ${jsonencode(local.dotfiles_uri)} (branch ${jsonencode(local.dotfiles_branch)})\n"
}

resource "coder_app" "dotfiles" {
  count        = var.manual_update ? 1 : 0
  agent_id     = var.agent_id
  display_name = "Refresh Dotfiles"
  slug         = "dotfiles"
  icon         = "/icon/dotfiles.svg"
  order        = var.order
  group        = var.group
  command      = "true"
}

resource "terraform_data" "inputs" {
  input = {
    agent_id                = var.agent_id
    order                   = var.order
    group                   = var.group
    description             = var.description
    default_dotfiles_uri    = var.default_dotfiles_uri
    default_dotfiles_branch = var.default_dotfiles_branch
    dotfiles_uri            = var.dotfiles_uri
    dotfiles_branch         = var.dotfiles_branch
    user                    = var.user
    coder_parameter_order   = var.coder_parameter_order
    manual_update           = var.manual_update
    post_clone_script_set   = var.post_clone_script != null
  }
}

output "dotfiles_uri" {
  value = local.dotfiles_uri
}
