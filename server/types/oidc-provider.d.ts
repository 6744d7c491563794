// The few parts of oidc-provider (which ships no types) that the demo provider and the tests use.
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  export interface Account {
    accountId: string;
    claims(use: string, scope: string): Record<string, unknown> | Promise<Record<string, unknown>>;
  }

  export interface ClientMetadata {
    client_id: string;
    client_secret?: string;
    redirect_uris: string[];
    post_logout_redirect_uris?: string[];
    grant_types?: string[];
    response_types?: string[];
    token_endpoint_auth_method?: string;
  }

  export interface Configuration {
    clients?: ClientMetadata[];
    findAccount?: (ctx: unknown, sub: string) => Account | undefined | Promise<Account | undefined>;
    claims?: Record<string, string[]>;
    cookies?: { keys?: string[] };
    features?: Record<string, { enabled: boolean }>;
    pkce?: { required: (ctx: unknown, client: unknown) => boolean };
    [setting: string]: unknown;
  }

  export interface InteractionDetails {
    uid: string;
    prompt: { name: string; details: Record<string, unknown> };
    params: Record<string, unknown>;
  }

  export interface InteractionResult {
    login?: { accountId: string };
    consent?: { grantId: string };
    error?: string;
    error_description?: string;
  }

  export class Grant {
    constructor(properties: { accountId: string; clientId: string });
    addOIDCScope(scope: string): void;
    addResourceScope(resource: string, scope: string): void;
    save(): Promise<string>;
  }

  export class Provider {
    constructor(issuer: string, configuration?: Configuration);
    readonly issuer: string;
    readonly Grant: typeof Grant;
    /** The clients' model: its checks of the redirect URIs a request names may be replaced. */
    readonly Client: {
      prototype: {
        redirectUriAllowed(value: string): boolean;
        postLogoutRedirectUriAllowed(value: string): boolean;
      };
    };
    readonly AccessToken: { find(value: string): Promise<AccessTokenModel | undefined> };
    callback(): (request: IncomingMessage, response: ServerResponse) => void;
    on(event: string, listener: (...args: unknown[]) => void): this;
    interactionDetails(request: IncomingMessage, response: ServerResponse): Promise<InteractionDetails>;
    interactionFinished(
      request: IncomingMessage,
      response: ServerResponse,
      result: InteractionResult,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<void>;
  }

  /** An access token as the provider stores it (the demo's stand-in for Xero's API checks the bearer with it). */
  export interface AccessTokenModel {
    readonly accountId?: string;
    readonly clientId?: string;
    readonly grantId?: string;
    readonly scope?: string;
    readonly aud?: string | string[];
    readonly isExpired: boolean;
  }

  export const errors: { InvalidTarget: new (description?: string) => Error };

  export default Provider;
}
