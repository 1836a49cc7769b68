# Offline stand-in for registry.coder.com/coder/claude-code/coder 5.4.0: the same inputs
# (types, defaults, sensitivity, and the rules that allow one sign-in method at a time) and
# the scripts output. v5 installs and signs in the Claude Code CLI only: no Tasks, no
# AgentAPI app. Nothing is installed here; terraform_data.inputs records what the template
# passed (the key and token only as whether they are set: a stub's state would show them in
# the clear). As the real module does, the sign-in reaches the agent as coder_env: the API
# key as ANTHROPIC_API_KEY, the OAuth token as CLAUDE_CODE_OAUTH_TOKEN, and with
# enable_ai_gateway the owner's session token as ANTHROPIC_AUTH_TOKEN and the gateway's URL
# under the access URL as ANTHROPIC_BASE_URL.

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

variable "icon" {
  type    = string
  default = "/icon/claude.svg"
}

variable "workdir" {
  type    = string
  default = null
}

variable "pre_install_script" {
  type    = string
  default = null
}

variable "post_install_script" {
  type    = string
  default = null
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

variable "anthropic_api_key" {
  type      = string
  default   = ""
  sensitive = true
}

variable "model" {
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

variable "claude_code_oauth_token" {
  type      = string
  default   = ""
  sensitive = true
}

variable "claude_binary_path" {
  type    = string
  default = "$HOME/.local/bin"

  validation {
    condition     = var.claude_binary_path == "$HOME/.local/bin" || !var.install_claude_code
    error_message = "A custom claude_binary_path needs install_claude_code = false."
  }
}

variable "managed_settings" {
  type    = any
  default = null
}

variable "enable_ai_gateway" {
  type    = bool
  default = false

  validation {
    condition     = !(var.enable_ai_gateway && length(var.anthropic_api_key) > 0)
    error_message = "enable_ai_gateway and anthropic_api_key exclude each other."
  }

  validation {
    condition     = !(var.enable_ai_gateway && length(var.claude_code_oauth_token) > 0)
    error_message = "enable_ai_gateway and claude_code_oauth_token exclude each other."
  }
}

variable "telemetry" {
  type = object({
    enabled             = optional(bool, false)
    otlp_endpoint       = optional(string, "")
    otlp_protocol       = optional(string, "http/protobuf")
    otlp_headers        = optional(map(string), {})
    resource_attributes = optional(map(string), {})
  })
  default = {}
}

variable "anthropic_base_url" {
  type    = string
  default = ""

  validation {
    condition     = !(var.anthropic_base_url != "" && var.enable_ai_gateway)
    error_message = "anthropic_base_url and enable_ai_gateway exclude each other."
  }
}

variable "use_bedrock" {
  type    = bool
  default = false

  validation {
    condition     = !(var.use_bedrock && var.enable_ai_gateway)
    error_message = "use_bedrock and enable_ai_gateway exclude each other."
  }

  validation {
    condition     = !(var.use_bedrock && var.use_vertex)
    error_message = "use_bedrock and use_vertex exclude each other."
  }
}

variable "use_vertex" {
  type    = bool
  default = false

  validation {
    condition     = !(var.use_vertex && var.enable_ai_gateway)
    error_message = "use_vertex and enable_ai_gateway exclude each other."
  }
}

variable "api_key_helper" {
  type = object({
    script = string
    ttl_ms = optional(number, 300000)
  })
  default = null

  validation {
    condition     = var.api_key_helper == null || (var.anthropic_api_key == "" && var.claude_code_oauth_token == "")
    error_message = "api_key_helper excludes anthropic_api_key and claude_code_oauth_token."
  }

  validation {
    condition     = var.api_key_helper == null || !var.enable_ai_gateway
    error_message = "api_key_helper and enable_ai_gateway exclude each other."
  }
}

data "coder_workspace" "me" {}

data "coder_workspace_owner" "me" {}

resource "terraform_data" "inputs" {
  input = {
    agent_id                    = var.agent_id
    icon                        = var.icon
    workdir                     = var.workdir
    pre_install_script          = var.pre_install_script
    post_install_script         = var.post_install_script
    install_claude_code         = var.install_claude_code
    claude_code_version         = var.claude_code_version
    disable_autoupdater         = var.disable_autoupdater
    anthropic_api_key_set       = var.anthropic_api_key != ""
    model                       = var.model
    mcp                         = var.mcp
    mcp_config_remote_path      = var.mcp_config_remote_path
    claude_code_oauth_token_set = var.claude_code_oauth_token != ""
    claude_binary_path          = var.claude_binary_path
    managed_settings_set        = var.managed_settings != null
    enable_ai_gateway           = var.enable_ai_gateway
    telemetry_enabled           = var.telemetry.enabled
    anthropic_base_url          = var.anthropic_base_url
    use_bedrock                 = var.use_bedrock
    use_vertex                  = var.use_vertex
    api_key_helper_set          = var.api_key_helper != null
  }
}

resource "coder_env" "anthropic_api_key" {
  count    = var.anthropic_api_key != "" ? 1 : 0
  agent_id = var.agent_id
  name     = "ANTHROPIC_API_KEY"
  value    = var.anthropic_api_key
}

resource "coder_env" "claude_code_oauth_token" {
  count    = var.claude_code_oauth_token != "" ? 1 : 0
  agent_id = var.agent_id
  name     = "CLAUDE_CODE_OAUTH_TOKEN"
  value    = var.claude_code_oauth_token
}

resource "coder_env" "anthropic_auth_token" {
  count    = var.enable_ai_gateway ? 1 : 0
  agent_id = var.agent_id
  name     = "ANTHROPIC_AUTH_TOKEN"
  value    = data.coder_workspace_owner.me.session_token
}

resource "coder_env" "anthropic_base_url" {
  count    = var.enable_ai_gateway || var.anthropic_base_url != "" ? 1 : 0
  agent_id = var.agent_id
  name     = "ANTHROPIC_BASE_URL"
  value    = var.enable_ai_gateway ? "${data.coder_workspace.me.access_url}/api/v2/aibridge/anthropic" : var.anthropic_base_url
}

# The real module returns the coder exp sync names of the scripts it creates (pre_install,
# install, post_install, those configured).
output "scripts" {
  value = compact([
    var.pre_install_script != null ? "coder-claude-code-pre_install_script" : "",
    "coder-claude-code-install_script",
    var.post_install_script != null ? "coder-claude-code-post_install_script" : "",
  ])
}
