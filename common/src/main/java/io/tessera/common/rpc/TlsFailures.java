package io.tessera.common.rpc;

import io.tessera.common.proto.StatusProto;
import io.tessera.common.status.TesseraException;
import java.io.IOException;
import java.security.cert.CertificateException;
import javax.net.ssl.SSLException;

/**
 * What a failed TLS exchange means to a caller: the peer refused our certificate or we refused its
 * (a permanent refusal, said once, not retried), or the connection broke during the handshake (the
 * peer may be down: unreachable, retried as usual).
 */
final class TlsFailures {
  private TlsFailures() {}

  /** The failure of a client's handshake with {@code address}. */
  static IOException handshake(String address, Throwable cause) {
    SSLException tls = sslCause(cause);
    if (tls == null) {
      return new PeerUnreachableException(
          address,
          "the connection closed during the TLS handshake ("
              + PeerAuthentication.reason(cause)
              + ": the server stopped, or it runs with tessera.security=off)");
    }
    return refused(address, tls);
  }

  /** A TLS error on an established connection (the server refusing our certificate), or null. */
  static IOException afterHandshake(String address, Throwable cause) {
    SSLException tls = sslCause(cause);
    return tls == null ? null : refused(address, tls);
  }

  private static IOException refused(String address, SSLException tls) {
    CertificateException ours = certificateCause(tls);
    String why =
        ours != null
            ? "this client refused the server's certificate: " + ours.getMessage()
            : address
                + " refused this client's credentials (revoked, expired, or not of this"
                + " cluster: tessera credentials list) ["
                + PeerAuthentication.reason(tls)
                + "]";
    return new TesseraException(StatusProto.PERMISSION_DENIED, "not authenticated: " + why);
  }

  /** Our own trust manager's refusal inside a TLS failure, or null (the peer refused us). */
  private static CertificateException certificateCause(Throwable t) {
    for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
      if (c instanceof CertificateException ce) {
        return ce;
      }
      for (Throwable s : c.getSuppressed()) {
        if (s instanceof CertificateException ce) {
          return ce;
        }
      }
    }
    return null;
  }

  private static SSLException sslCause(Throwable t) {
    for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
      if (c instanceof SSLException s) {
        return s;
      }
    }
    return null;
  }
}
