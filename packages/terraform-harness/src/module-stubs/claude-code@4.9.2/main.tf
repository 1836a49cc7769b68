# Offline stand-in for registry.coder.com/coder/claude-code/coder 4.9.2: the same inputs
# (types, defaults, sensitivity) and the task_app_id output Coder Tasks point
# coder_ai_task.app_id at. Nothing is installed; terraform_data.inputs records what the
# template passed (the API key only as whether it is set, the OAuth token not at all:
# a stub's state would show them in the clear). As the real module does, a non-empty API
# key reaches the agent as the ANTHROPIC_API_KEY environment variable (coder_env).

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

variable "order" {
  type    = number
  default = null
}

variable "group" {
  type    = string
  default = null
}

variable "icon" {
  type    = string
  default = "/icon/claude.svg"
}

variable "workdir" {
  type = string
}

variable "report_tasks" {
  type    = bool
  default = true
}

variable "web_app" {
  type    = bool
  default = true
}

variable "cli_app" {
  type    = bool
  default = false
}

variable "web_app_display_name" {
  type    = string
  default = "Claude Code"
}

variable "cli_app_display_name" {
  type    = string
  default = "Claude Code CLI"
}

variable "pre_install_script" {
  type    = string
  default = null
}

variable "post_install_script" {
  type    = string
  default = null
}

variable "install_agentapi" {
  type    = bool
  default = true
}

variable "agentapi_version" {
  type    = string
  default = "v0.11.8"
}

variable "ai_prompt" {
  type    = string
  default = ""
}

variable "subdomain" {
  type    = bool
  default = false
}

variable "install_claude_code" {
  type    = bool
  default = true
}

variable "claude_code_version" {
  type    = string
  default = "latest"
}

variable "disable_autoupdater" {
  type    = bool
  default = false
}

variable "claude_api_key" {
  type    = string
  default = ""
}

variable "model" {
  type    = string
  default = ""
}

variable "resume_session_id" {
  type    = string
  default = ""
}

variable "continue" {
  type    = bool
  default = true
}

variable "dangerously_skip_permissions" {
  type    = bool
  default = false
}

variable "permission_mode" {
  type    = string
  default = ""
}

variable "mcp" {
  type    = string
  default = ""
}

variable "mcp_config_remote_path" {
  type    = list(string)
  default = []
}

variable "allowed_tools" {
  type    = string
  default = ""
}

variable "disallowed_tools" {
  type    = string
  default = ""
}

variable "claude_code_oauth_token" {
  type      = string
  default   = ""
  sensitive = true
}

variable "system_prompt" {
  type    = string
  default = ""
}

variable "claude_md_path" {
  type    = string
  default = "$HOME/.claude/CLAUDE.md"
}

variable "claude_binary_path" {
  type    = string
  default = "$HOME/.local/bin"
}

variable "install_via_npm" {
  type    = bool
  default = false
}

variable "enable_boundary" {
  type    = bool
  default = false
}

variable "boundary_version" {
  type    = string
  default = "latest"
}

variable "compile_boundary_from_source" {
  type    = bool
  default = false
}

variable "use_boundary_directly" {
  type    = bool
  default = false
}

variable "enable_aibridge" {
  type    = bool
  default = false
}

variable "enable_state_persistence" {
  type    = bool
  default = true
}

resource "terraform_data" "inputs" {
  input = {
    agent_id                     = var.agent_id
    order                        = var.order
    group                        = var.group
    icon                         = var.icon
    workdir                      = var.workdir
    report_tasks                 = var.report_tasks
    web_app                      = var.web_app
    cli_app                      = var.cli_app
    web_app_display_name         = var.web_app_display_name
    cli_app_display_name         = var.cli_app_display_name
    pre_install_script           = var.pre_install_script
    post_install_script          = var.post_install_script
    install_agentapi             = var.install_agentapi
    agentapi_version             = var.agentapi_version
    ai_prompt                    = var.ai_prompt
    subdomain                    = var.subdomain
    install_claude_code          = var.install_claude_code
    claude_code_version          = var.claude_code_version
    disable_autoupdater          = var.disable_autoupdater
    claude_api_key_set           = var.claude_api_key != ""
    model                        = var.model
    resume_session_id            = var.resume_session_id
    continue                     = var.continue
    dangerously_skip_permissions = var.dangerously_skip_permissions
    permission_mode              = var.permission_mode
    mcp                          = var.mcp
    mcp_config_remote_path       = var.mcp_config_remote_path
    allowed_tools                = var.allowed_tools
    disallowed_tools             = var.disallowed_tools
    system_prompt                = var.system_prompt
    claude_md_path               = var.claude_md_path
    claude_binary_path           = var.claude_binary_path
    install_via_npm              = var.install_via_npm
    enable_boundary              = var.enable_boundary
    boundary_version             = var.boundary_version
    compile_boundary_from_source = var.compile_boundary_from_source
    use_boundary_directly        = var.use_boundary_directly
    enable_aibridge              = var.enable_aibridge
    enable_state_persistence     = var.enable_state_persistence
  }
}

resource "coder_env" "claude_api_key" {
  count    = var.claude_api_key != "" ? 1 : 0
  agent_id = var.agent_id
  name     = "ANTHROPIC_API_KEY"
  value    = var.claude_api_key
}

# The real module returns the id of its AgentAPI web app.
output "task_app_id" {
  value = terraform_data.inputs.id
}

