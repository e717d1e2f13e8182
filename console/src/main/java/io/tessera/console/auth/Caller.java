package io.tessera.console.auth;

import io.tessera.client.admin.ConsoleAdmin;

/** Who made a request: the token it carried, and from where. */
public record Caller(ConsoleAdmin.Token token, String address) {
  /** How the audit log names the caller: the token's name and id. */
  public String who() {
    return token.name() + " (" + token.id() + ")";
  }
}
