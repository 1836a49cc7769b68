/**
 * SessionToken (a TokenRequest bound to a session Secret, both per start) and
 * WorkspaceNamespace, as synthesized and as the template policies take them.
 */
import { TerraformLocal } from "../../lib/core/cdk";
import { ServiceAccountV1 } from "@cdktf/provider-kubernetes/lib/service-account-v1";
import { SessionToken, MIN_TOKEN_SECONDS } from "../../lib/constructs/session-token";
import { WorkspaceNamespace } from "../../lib/constructs/workspace-namespace";
import { WorkspaceData } from "../../lib/constructs/workspace-data";
import { synthConstruct } from "./construct-stack";

const META = { labels: { "app.coder.io/workspace": "ws" }, annotations: {} };

describe("SessionToken", () => {
  it("requests a token for the account, bound by name and uid to a session Secret, both per start", () => {
    const tf = synthConstruct((stack) => {
      const ws = new WorkspaceData(stack, "workspace");
      const account = new ServiceAccountV1(stack, "identity", {
        metadata: { name: "ws", namespace: "builds" },
        automountServiceAccountToken: false,
      });
      new SessionToken(stack, "session", {
        resourcePrefix: "identity",
        serviceAccountName: account.metadata.name,
        namespace: "builds",
        sessionName: "ws-session",
        meta: META,
        count: ws.startCount,
        expirationSeconds: 8 * 3600,
      });
    });
    const session = tf.resource.kubernetes_secret_v1.identity_session;
    expect(session).toMatchObject({
      count: "${data.coder_workspace.me.start_count}",
      type: "Opaque",
      metadata: { name: "ws-session", namespace: "builds" },
    });
    expect(session.data).toBeUndefined();
    const request = tf.resource.kubernetes_token_request_v1.identity;
    expect(request).toMatchObject({
      count: "${data.coder_workspace.me.start_count}",
      metadata: {
        name: "${kubernetes_service_account_v1.identity.metadata[0].name}",
        namespace: "builds",
      },
      spec: {
        expiration_seconds: 28800,
        bound_object_ref: {
          api_version: "v1",
          kind: "Secret",
          name: "${kubernetes_secret_v1.identity_session[0].metadata[0].name}",
          uid: "${kubernetes_secret_v1.identity_session[0].metadata[0].uid}",
        },
      },
    });
    expect(MIN_TOKEN_SECONDS).toBe(600);
  });

  it("offers the token as an expression that is empty while stopped", () => {
    const tf = synthConstruct((stack) => {
      const ws = new WorkspaceData(stack, "workspace");
      const session = new SessionToken(stack, "session", {
        serviceAccountName: "ws",
        namespace: "builds",
        sessionName: "ws-session",
        meta: META,
        count: ws.startCount,
        expirationSeconds: 3600,
      });
      new TerraformLocal(stack, "token", session.token);
    });
    expect(tf.locals.token).toBe('${try(kubernetes_token_request_v1.session[0].token, "")}');
  });
});

describe("WorkspaceNamespace", () => {
  it("creates a namespace with the workspace's labels and the given count", () => {
    const tf = synthConstruct((stack) => {
      new WorkspaceNamespace(stack, "build_namespace", {
        name: "packer-abc",
        meta: META,
        count: 1,
      });
    });
    expect(tf.resource.kubernetes_namespace_v1.build_namespace).toMatchObject({
      count: 1,
      metadata: { name: "packer-abc", labels: META.labels },
    });
  });
});
