/**
 * Which host a git credential belongs to, and which host a repository URL names: the two
 * sides of the rule that a token is only ever sent to its own host (docs/security.md,
 * "Secrets"). Both sides are compared as normalized `host[:port]` texts, exactly:
 *
 * - only an `http(s)://` URL whose authority is a plain ASCII host (letters, digits, `.`, `-`)
 *   and an optional port has a host at all. A user part (`https://github.com@evil.net/`,
 *   `https://token@host/`), a backslash, a percent sign, an IPv6 literal, non-ASCII letters
 *   (an IDN such as `gïthub.com`: its punycode `xn--…` is another host) or any other
 *   character leaves it without one, and so without credentials;
 * - the host is lowercased (DNS names are case-insensitive) and one trailing dot is dropped
 *   (`github.com.` is the same absolute name). Lowercasing comes after the ASCII test, so a
 *   letter that only lowercases to ASCII does not pass as its look-alike (Terraform has already
 *   normalized the text to NFC, as the service receives it: the Kelvin sign arrives as `K`);
 * - the scheme's default port (443 for https, 80 for http) is dropped, any other port is kept
 *   (`github.com:8443` is another service than `github.com`, and an operator who means it
 *   lists `host:port`);
 * - ssh:// and scp-style (`git@host:path`) URLs have no host here: the tokens are HTTPS
 *   credentials, and the service clones those with its own SSH setup;
 * - plain `http://` carries credentials only to a Service in the cluster (`*.svc`,
 *   `*.svc.cluster.local`), and the repository parameter refuses it elsewhere.
 */
import { type IResolvable } from "../core/cdk";
import type { NamedLocals } from "../core/named-locals";
import { hcl, type HclValue } from "../core/expr";
import { patternRule, type Rule } from "../core/validate";

/** A credential's host as the operator names it: lowercase ASCII, no trailing dot, a port only when not the default. */
export const GIT_HOST_PATTERN =
  "^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?([.][a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*(:[1-9][0-9]{0,4})?$";

/** One host entry (see {@link GIT_HOST_PATTERN}). */
export const GIT_HOST = patternRule(
  "a host name in lowercase ASCII (punycode for international names), without a scheme, path or trailing dot, and with :port only for a port other than the scheme's default (github.com, git.example.com:8443)",
  GIT_HOST_PATTERN,
);

/** A list of {@link GIT_HOST} entries (empty allowed: no host gets the credential). */
export const GIT_HOST_LIST: Rule = {
  requirement: `a list of ${GIT_HOST.requirement}`,
  test: (value) => Array.isArray(value) && value.every((v) => GIT_HOST.test(v)),
  condition: (ref) => hcl`alltrue([for host in ${ref} : can(regex(${GIT_HOST_PATTERN}, host))])`,
};

/**
 * What the `repository` parameter accepts (Go RE2 and JavaScript alike):
 * - `https://host[:port][/…]` with no user part (a host has no `@`, `:`, `\`, `[` or blanks);
 * - `http://` only to a Service in the cluster: `<name>[.<namespace>].svc[.cluster.local]`;
 * - `ssh://[user@]host[:port]/path` and `[user@]host:path` (a login name, never a password).
 */
export const REPOSITORY_URL_PATTERN =
  "^(https://[^\\s/?#@:\\\\\\[\\]]+(:[0-9]{1,5})?([/?#]\\S*)?" +
  "|http://[A-Za-z0-9-]+([.][A-Za-z0-9-]+)*[.]svc([.]cluster[.]local)?(:[0-9]{1,5})?([/?#]\\S*)?" +
  "|ssh://([A-Za-z0-9._-]+@)?[A-Za-z0-9.-]+(:[0-9]{1,5})?/\\S*" +
  "|([A-Za-z0-9._-]+@)?[A-Za-z0-9.-]+:[^/\\s]\\S*)$";

/** The `repository` parameter's validation message. */
export const REPOSITORY_URL_ERROR =
  "The repository must be an https:// URL (https://host/owner/repo.git), an ssh:// URL or " +
  "git@host:owner/repo.git. Give no user name, password or token in an https URL: the " +
  "template supplies the credentials for the hosts they belong to. Plain http:// is only " +
  "allowed to a Service in the cluster (name.namespace.svc or name.namespace.svc.cluster.local), " +
  "since anything sent over it can be read on the way.";

/** The captures of an http(s) URL with a plain host: scheme, host, `:port` or null, separator. */
const HTTP_URL_PARTS = "^([hH][tT][tT][pP][sS]?)://([A-Za-z0-9.-]+)(:[0-9]{1,5})?([/?#]|$)";

/**
 * The normalized `host[:port]` of `url`, or "" when it names no http(s) host that may be sent
 * credentials (see the file comment): plain http only to a cluster Service. With `locals`, the
 * URL's parts are locals (`git_repository_url_parts`, `_scheme`, `_host`, `_port`), each
 * computed once; without, one expression.
 */
export function repositoryCredentialHost(url: HclValue, locals?: NamedLocals): IResolvable {
  // try(): a URL that is no http(s) URL, or a part that is missing, is null here and "" below.
  const part = (name: string, expression: IResolvable, why?: string): IResolvable =>
    locals === undefined ? expression : locals.add(`git_repository_url_${name}`, expression, why);
  const parts = part(
    "parts",
    hcl`try(regex(${HTTP_URL_PARTS}, ${url}), null)`,
    "Only an http(s) URL with a plain host can match a credential host; any other URL gets none.",
  );
  const scheme = part(
    "scheme",
    hcl`try(lower(${parts}[0]), null)`,
    "HTTPS and https are one scheme: the default port and the plain-http rule compare it.",
  );
  const host = part(
    "host",
    hcl`try(lower(trimsuffix(${parts}[1], ".")), null)`,
    "DNS names are case-insensitive, and github.com. is github.com: compared in one form.",
  );
  const port = part(
    "port",
    hcl`try(${parts}[2] == null ? -1 : tonumber(trimprefix(${parts}[2], ":")), null)`,
    "The scheme's default port is the same service as none; any other port is another one.",
  );
  const defaultPort = hcl`(${scheme} == "https" ? 443 : 80)`;
  const inCluster = hcl`can(regex("[.]svc([.]cluster[.]local)?$", ${host}))`;
  return hcl`try(
    ${scheme} == "https" || ${inCluster}
      ? format("%s%s", ${host}, contains([-1, ${defaultPort}], ${port}) ? "" : format(":%d", ${port}))
      : "",
    "")`;
}
