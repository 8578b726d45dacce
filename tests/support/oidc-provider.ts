import { OAuth2Server } from 'oauth2-mock-server';

export interface OidcUser {
  sub: string;
  email?: string;
  email_verified?: boolean;
  name?: string;
}

/**
 * A real OpenID Connect provider on loopback (oauth2-mock-server): discovery, authorize (PKCE
 * checked), token with signed ID tokens carrying the nonce, and userinfo. `signInAs` sets who
 * the next sign-in is.
 */
export class OidcProvider {
  readonly server = new OAuth2Server();
  private user: OidcUser = { sub: 'user-1', email: 'user-1@example.test', email_verified: true, name: 'Test User' };

  get issuer(): string {
    return this.server.issuer.url!;
  }

  url(path: string): string {
    return new URL(path, `${this.issuer}/`).toString();
  }

  async start(): Promise<this> {
    await this.server.issuer.keys.generate('RS256');
    await this.server.start(0, '127.0.0.1');
    this.server.service.on('beforeTokenSigning', (token) => {
      // ID tokens (those with a nonce or an audience) carry the current user; access tokens too, harmlessly.
      Object.assign(token.payload, this.user);
    });
    this.server.service.on('beforeUserinfo', (response) => {
      // Facebook's shape: id, name, email.
      response.body = { id: this.user.sub, sub: this.user.sub, name: this.user.name, ...(this.user.email ? { email: this.user.email } : {}) };
    });
    return this;
  }

  signInAs(user: OidcUser): void {
    this.user = user;
  }

  stop(): Promise<void> {
    return this.server.stop();
  }
}
