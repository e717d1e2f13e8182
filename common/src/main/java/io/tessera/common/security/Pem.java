package io.tessera.common.security;

import java.io.ByteArrayInputStream;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** PEM text: certificates and PKCS#8 private keys, read and written with the JDK alone. */
public final class Pem {
  private static final Pattern BLOCK =
      Pattern.compile("-----BEGIN ([A-Z ]+)-----([A-Za-z0-9+/=\\s]*?)-----END \\1-----");

  private Pem() {}

  /** One block of PEM text. */
  public record Block(String type, byte[] der) {}

  public static List<Block> blocks(String text) {
    List<Block> out = new ArrayList<>();
    Matcher m = BLOCK.matcher(text);
    while (m.find()) {
      out.add(new Block(m.group(1), Base64.getMimeDecoder().decode(m.group(2))));
    }
    return out;
  }

  public static String encode(String type, byte[] der) {
    return "-----BEGIN "
        + type
        + "-----\n"
        + Base64.getMimeEncoder(64, new byte[] {'\n'}).encodeToString(der)
        + "\n-----END "
        + type
        + "-----\n";
  }

  public static String certificate(X509Certificate cert) {
    try {
      return encode("CERTIFICATE", cert.getEncoded());
    } catch (CertificateException e) {
      throw new IllegalStateException("a certificate that cannot be encoded", e);
    }
  }

  public static String privateKey(PrivateKey key) {
    return encode("PRIVATE KEY", key.getEncoded());
  }

  public static X509Certificate parseCertificate(byte[] der) {
    try {
      return (X509Certificate)
          CertificateFactory.getInstance("X.509")
              .generateCertificate(new ByteArrayInputStream(der));
    } catch (CertificateException e) {
      throw new IllegalArgumentException("unreadable certificate: " + e.getMessage());
    }
  }

  /** A PKCS#8 private key of the algorithms the cluster CA issues (EC, Ed25519, RSA). */
  public static PrivateKey parsePrivateKey(byte[] der) {
    for (String algorithm : List.of("EC", "Ed25519", "RSA")) {
      try {
        return KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(der));
      } catch (GeneralSecurityException | IllegalArgumentException notThisOne) {
        // try the next
      }
    }
    throw new IllegalArgumentException("unreadable private key (PKCS#8 EC, Ed25519 or RSA)");
  }
}
