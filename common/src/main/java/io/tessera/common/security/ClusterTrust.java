package io.tessera.common.security;

import io.tessera.common.proto.RevocationProto;
import java.net.Socket;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.Arrays;
import java.util.Set;
import java.util.function.Predicate;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * Trusts the certificates the cluster CA signed, and of those only the ones a port accepts: a
 * client accepts servers alone (a user's certificate cannot pose as a data server), a Raft port
 * meta replicas alone; revoked ones never. Checked in the TLS handshake, so a refused peer is
 * dropped before a byte of protocol is read.
 */
public final class ClusterTrust extends X509ExtendedTrustManager {
  private final X509ExtendedTrustManager pkix;
  private final Predicate<Identity> accepted;
  private final String acceptedWords;
  private final Revocations revocations;

  private ClusterTrust(
      X509ExtendedTrustManager pkix,
      Predicate<Identity> accepted,
      String acceptedWords,
      Revocations revocations) {
    this.pkix = pkix;
    this.accepted = accepted;
    this.acceptedWords = acceptedWords;
    this.revocations = revocations;
  }

  /** Trusts any identity the CA signed that is not revoked. */
  public static ClusterTrust anyone(X509Certificate ca, Revocations revocations) {
    return new ClusterTrust(pkix(ca), id -> true, "", revocations);
  }

  /** Trusts the CA's servers of these roles alone. */
  public static ClusterTrust servers(
      X509Certificate ca, Revocations revocations, Set<Identity.Role> roles) {
    return new ClusterTrust(
        pkix(ca),
        id -> id.isServer(roles.toArray(Identity.Role[]::new)),
        "servers of the cluster (" + roles + ")",
        revocations);
  }

  private static X509ExtendedTrustManager pkix(X509Certificate ca) {
    try {
      KeyStore anchors = KeyStore.getInstance(KeyStore.getDefaultType());
      anchors.load(null, null);
      anchors.setCertificateEntry("tessera-cluster-ca", ca);
      TrustManagerFactory f = TrustManagerFactory.getInstance("PKIX");
      f.init(anchors);
      for (TrustManager tm : f.getTrustManagers()) {
        if (tm instanceof X509ExtendedTrustManager x) {
          return x;
        }
      }
    } catch (GeneralSecurityException | java.io.IOException e) {
      throw new IllegalStateException("cannot trust the cluster CA: " + e.getMessage(), e);
    }
    throw new IllegalStateException("the JDK has no PKIX trust manager");
  }

  private void checkIdentity(X509Certificate[] chain) throws CertificateException {
    Identity id;
    try {
      id = Identity.of(chain[0]);
    } catch (IllegalArgumentException e) {
      throw new CertificateException(e.getMessage());
    }
    if (!accepted.test(id)) {
      throw new CertificateException(id.describe() + " is refused here: only " + acceptedWords);
    }
    RevocationProto r = revocations.revoking(id);
    if (r != null) {
      throw new CertificateException(id.describe() + " was revoked");
    }
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
      throws CertificateException {
    pkix.checkClientTrusted(chain, authType, engine);
    checkIdentity(chain);
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
      throws CertificateException {
    pkix.checkServerTrusted(chain, authType, engine);
    checkIdentity(chain);
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket)
      throws CertificateException {
    pkix.checkClientTrusted(chain, authType, socket);
    checkIdentity(chain);
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket)
      throws CertificateException {
    pkix.checkServerTrusted(chain, authType, socket);
    checkIdentity(chain);
  }

  @Override
  public void checkClientTrusted(X509Certificate[] chain, String authType)
      throws CertificateException {
    pkix.checkClientTrusted(chain, authType);
    checkIdentity(chain);
  }

  @Override
  public void checkServerTrusted(X509Certificate[] chain, String authType)
      throws CertificateException {
    pkix.checkServerTrusted(chain, authType);
    checkIdentity(chain);
  }

  @Override
  public X509Certificate[] getAcceptedIssuers() {
    return Arrays.copyOf(pkix.getAcceptedIssuers(), pkix.getAcceptedIssuers().length);
  }
}
