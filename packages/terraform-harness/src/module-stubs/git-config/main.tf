# Offline stand-in for registry.coder.com/coder/git-config/coder 1.0.34: the same inputs
# (types and defaults), the parameters it adds when users may change their git name or email,
# the git author and committer variables it gives the agent (the email ones only when the
# owner has an email), and its start script, which in the real module sets user.name and
# user.email with `git config --global`. terraform_data.inputs records what the template
# passed. No outputs, as the real module.

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

variable "allow_username_change" {
  type    = bool
  default = true
}

variable "allow_email_change" {
  type    = bool
  default = false
}

variable "coder_parameter_order" {
  type    = number
  default = null
}

data "coder_workspace" "me" {}
data "coder_workspace_owner" "me" {}

data "coder_parameter" "user_email" {
  count        = var.allow_email_change ? 1 : 0
  name         = "user_email"
  type         = "string"
  default      = ""
  order        = var.coder_parameter_order != null ? var.coder_parameter_order + 0 : null
  description  = "Git user.email to be used for commits. Leave empty to default to Coder user's email."
  display_name = "Git config user.email"
  mutable      = true
}

data "coder_parameter" "username" {
  count        = var.allow_username_change ? 1 : 0
  name         = "username"
  type         = "string"
  default      = ""
  order        = var.coder_parameter_order != null ? var.coder_parameter_order + 1 : null
  description  = "Git user.name to be used for commits. Leave empty to default to Coder user's Full Name."
  display_name = "Full Name for Git config"
  mutable      = true
}

locals {
  git_user_name  = coalesce(try(data.coder_parameter.username[0].value, ""), data.coder_workspace_owner.me.full_name, data.coder_workspace_owner.me.name)
  git_user_email = try(coalesce(try(data.coder_parameter.user_email[0].value, ""), data.coder_workspace_owner.me.email), "")
}

resource "coder_env" "git_author_name" {
  agent_id = var.agent_id
  name     = "GIT_AUTHOR_NAME"
  value    = local.git_user_name
}

resource "coder_env" "git_commmiter_name" {
  agent_id = var.agent_id
  name     = "GIT_COMMITTER_NAME"
  value    = local.git_user_name
}

resource "coder_env" "git_author_email" {
  count    = data.coder_workspace_owner.me.email != "" ? 1 : 0
  agent_id = var.agent_id
  name     = "GIT_AUTHOR_EMAIL"
  value    = local.git_user_email
}

resource "coder_env" "git_commmiter_email" {
  count    = data.coder_workspace_owner.me.email != "" ? 1 : 0
  agent_id = var.agent_id
  name     = "GIT_COMMITTER_EMAIL"
  value    = local.git_user_email
}

resource "coder_script" "git_user_config" {
  agent_id     = var.agent_id
  run_on_start = true
  display_name = "Configure git user globally"
  script       = "#!/bin/bash\n# stub: git config --global user.name/user.email\n"
}

resource "terraform_data" "inputs" {
  input = {
    agent_id              = var.agent_id
    allow_username_change = var.allow_username_change
    allow_email_change    = var.allow_email_change
    coder_parameter_order = var.coder_parameter_order
  }
}
