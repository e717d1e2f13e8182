package io.tessera.nfs.export;

import io.tessera.nfs.oncrpc.UnixCredential;

/**
 * What one client pattern of an export may do, from {@code /etc/exports} options.
 *
 * @param clients the addresses it covers
 * @param readWrite {@code rw} (else {@code ro}, the default)
 * @param rootSquash {@code root_squash} (the default): uid 0 acts as the anonymous user
 * @param allSquash {@code all_squash}: every caller acts as the anonymous user
 * @param anonUid {@code anonuid}, default 65534
 * @param anonGid {@code anongid}, default 65534
 * @param secure {@code secure} (the default): calls must come from a port below 1024, which only
 *     root may bind on the client's machine ({@code insecure} lets any port)
 */
public record ClientRule(
    AddressMatch clients,
    boolean readWrite,
    boolean rootSquash,
    boolean allSquash,
    int anonUid,
    int anonGid,
    boolean secure) {
  public static final int NOBODY = 65534;

  /** The first port a client's unprivileged processes may bind. */
  public static final int FIRST_UNPRIVILEGED_PORT = 1024;

  /** Whether a call from this source port passes {@code secure}. */
  public boolean admitsPort(int port) {
    return !secure || port < FIRST_UNPRIVILEGED_PORT;
  }

  /** The identity a call acts with under this rule. */
  public UnixCredential effective(UnixCredential caller) {
    if (allSquash || caller == UnixCredential.NOBODY || (rootSquash && caller.uid() == 0)) {
      return caller.as(anonUid, anonGid);
    }
    return caller;
  }
}
