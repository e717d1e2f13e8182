package io.tessera.client.admin;

import io.tessera.client.Futures;
import io.tessera.client.internal.MetaClient;
import io.tessera.common.proto.CredentialRecordProto;
import io.tessera.common.proto.CredentialsListRequestProto;
import io.tessera.common.proto.CredentialsProto;
import io.tessera.common.proto.CredentialsRegisterRequestProto;
import io.tessera.common.proto.CredentialsRevokeRequestProto;
import io.tessera.common.proto.MetaRequestProto;
import io.tessera.common.proto.RevocationProto;
import io.tessera.common.security.Identity;
import java.io.IOException;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.List;
import java.util.Locale;

/**
 * The cluster's record of the credentials its CA issued, and their revocation (admins only). A
 * revocation reaches every server within seconds: they refuse the certificates it names and close
 * the connections those hold open.
 */
public final class CredentialsAdmin {
  private final MetaClient meta;

  CredentialsAdmin(MetaClient meta) {
    this.meta = meta;
  }

  /** Issued credentials as the cluster recorded them. */
  public record Issued(
      String name,
      boolean server,
      String role,
      int uid,
      int gid,
      List<Integer> groups,
      boolean admin,
      String serial,
      Instant issued,
      Instant expires,
      String issuedBy) {
    static Issued of(CredentialRecordProto p) {
      return new Issued(
          p.getName(),
          p.getServer(),
          p.getRole(),
          p.getUid(),
          p.getGid(),
          p.getGroupsList(),
          p.getAdmin(),
          p.getSerial(),
          Instant.ofEpochMilli(p.getIssuedMs()),
          Instant.ofEpochMilli(p.getExpiresMs()),
          p.getIssuedBy());
    }
  }

  /**
   * One revocation: every certificate of {@code name} issued before {@code issuedBefore}, or the
   * one with {@code serial}.
   */
  public record Revocation(
      String name,
      boolean server,
      String serial,
      Instant issuedBefore,
      Instant revoked,
      String by) {
    static Revocation of(RevocationProto p) {
      return new Revocation(
          p.getName(),
          p.getServer(),
          p.getSerial(),
          Instant.ofEpochMilli(p.getIssuedBeforeMs()),
          Instant.ofEpochMilli(p.getRevokedMs()),
          p.getRevokedBy());
    }
  }

  /** What the cluster knows of issued credentials and revocations. */
  public record Listing(List<Issued> issued, List<Revocation> revocations) {
    /** Whether a recorded certificate is revoked. */
    public boolean revoked(Issued i) {
      return revocations.stream()
          .anyMatch(
              r ->
                  r.serial().equalsIgnoreCase(i.serial())
                      || (r.name().equals(i.name())
                          && r.server() == i.server()
                          && i.issued().isBefore(r.issuedBefore())));
    }
  }

  /** Records a certificate the cluster CA just issued. */
  public void register(X509Certificate cert) throws IOException {
    Identity id = Identity.of(cert);
    CredentialRecordProto.Builder r =
        CredentialRecordProto.newBuilder()
            .setName(id.name())
            .setServer(id.isServer())
            .setUid(id.uid())
            .setGid(id.gid())
            .addAllGroups(id.groups())
            .setAdmin(id.admin())
            .setSerial(id.serial())
            .setIssuedMs(id.issuedMs())
            .setExpiresMs(cert.getNotAfter().getTime());
    if (id.isServer()) {
      r.setRole(id.role().name().toLowerCase(Locale.ROOT));
    }
    Futures.get(
        meta.call(
            MetaRequestProto.newBuilder()
                .setCredentialsRegister(
                    CredentialsRegisterRequestProto.newBuilder().setRecord(r))));
  }

  /**
   * Revokes every certificate of the user {@code name} (or with {@code server}, the server) issued
   * until now; credentials issued later for the same name work.
   */
  public void revoke(String name, boolean server) throws IOException {
    Futures.get(
        meta.call(
            MetaRequestProto.newBuilder()
                .setCredentialsRevoke(
                    CredentialsRevokeRequestProto.newBuilder().setName(name).setServer(server))));
  }

  /** Revokes the one certificate with this serial number (hex). */
  public void revokeSerial(String serial) throws IOException {
    Futures.get(
        meta.call(
            MetaRequestProto.newBuilder()
                .setCredentialsRevoke(
                    CredentialsRevokeRequestProto.newBuilder().setSerial(serial))));
  }

  public Listing list() throws IOException {
    CredentialsProto c =
        Futures.get(
                meta.call(
                    MetaRequestProto.newBuilder()
                        .setCredentialsList(CredentialsListRequestProto.getDefaultInstance())))
            .getCredentials();
    return new Listing(
        c.getIssuedList().stream().map(Issued::of).toList(),
        c.getRevocations().getEntriesList().stream().map(Revocation::of).toList());
  }
}
