# Offline stand-in for registry.coder.com/coder/git-clone/coder 2.0.3: the same inputs and
# outputs. The outputs approximate the real URL parsing (folder from the URL's last path
# segment, no provider detection); terraform_data.inputs records what the template passed.

variable "agent_id" {
  type = string
}

variable "url" {
  type = string
}

variable "base_dir" {
  type    = string
  default = ""
}

variable "folder_name" {
  type    = string
  default = ""
}

variable "branch_name" {
  type    = string
  default = ""
}

variable "git_providers" {
  type = map(object({
    provider = string
  }))
  default = {
    "https://github.com/" = { provider = "github" }
    "https://gitlab.com/" = { provider = "gitlab" }
  }
}

variable "extra_args" {
  type    = string
  default = ""
}

variable "pre_clone_script" {
  type    = string
  default = null
}

variable "post_clone_script" {
  type    = string
  default = null
}

locals {
  folder_name = var.folder_name != "" ? var.folder_name : trimsuffix(element(split("/", trimsuffix(var.url, "/")), length(split("/", trimsuffix(var.url, "/"))) - 1), ".git")
  base_dir    = var.base_dir != "" ? trimsuffix(var.base_dir, "/") : "~"
}

resource "terraform_data" "inputs" {
  input = {
    agent_id          = var.agent_id
    url               = var.url
    base_dir          = var.base_dir
    folder_name       = var.folder_name
    branch_name       = var.branch_name
    extra_args        = var.extra_args
    pre_clone_script  = var.pre_clone_script
    post_clone_script = var.post_clone_script
  }
}

output "repo_dir" {
  value = "${local.base_dir}/${local.folder_name}"
}

output "folder_name" {
  value = local.folder_name
}

output "clone_url" {
  value = var.url
}

output "web_url" {
  value = var.url
}

output "branch_name" {
  value = var.branch_name
}

output "git_provider" {
  value = ""
}
