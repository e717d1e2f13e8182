package io.tessera.ca;

import io.tessera.common.security.Credentials;
import io.tessera.common.security.Identity;
import io.tessera.common.security.Pem;
import java.io.IOException;
import java.math.BigInteger;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.HexFormat;
import java.util.List;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x500.X500NameBuilder;
import org.bouncycastle.asn1.x500.style.BCStyle;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.CertIOException;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * The cluster's certificate authority: an ECDSA P-256 key and its self-signed certificate, kept in
 * one PEM file readable by its owner alone ({@code ca.key}; {@code ca.crt} beside it holds the
 * certificate only, to hand out). Whoever holds the key can issue credentials for any user or
 * server of the cluster; servers and clients trust exactly the certificates it signed.
 */
public final class CertificateAuthority {
  /** The file with the CA's key and certificate. */
  public static final String KEY_FILE = "ca.key";

  /** The CA's certificate alone. */
  public static final String CERTIFICATE_FILE = "ca.crt";

  /** How long the CA's own certificate is valid. */
  private static final Duration CA_VALIDITY = Duration.ofDays(20 * 365);

  /** Clocks of a cluster's machines differ a little: certificates are valid from a bit earlier. */
  private static final Duration CLOCK_SKEW = Duration.ofMinutes(5);

  private static final SecureRandom RANDOM = new SecureRandom();

  private final X509Certificate certificate;
  private final PrivateKey key;

  private CertificateAuthority(X509Certificate certificate, PrivateKey key) {
    this.certificate = certificate;
    this.key = key;
  }

  /**
   * Creates a new CA in {@code dir} ({@link #KEY_FILE} at mode 0600, {@link #CERTIFICATE_FILE}).
   *
   * @throws IOException when {@code dir} already holds a CA: it is never replaced (every credential
   *     it signed would stop working)
   */
  public static CertificateAuthority create(Path dir, String clusterName) throws IOException {
    Path keyFile = dir.resolve(KEY_FILE);
    if (Files.exists(keyFile)) {
      throw new IOException(
          keyFile
              + " already exists: a cluster keeps its CA (replacing it would invalidate every"
              + " credential it issued)");
    }
    KeyPair pair = newKeyPair();
    X500Name name =
        new X500NameBuilder(BCStyle.INSTANCE)
            .addRDN(BCStyle.O, "Tessera")
            .addRDN(BCStyle.CN, "Tessera cluster CA " + clusterName)
            .build();
    Instant now = Instant.now();
    try {
      X509v3CertificateBuilder b =
          new JcaX509v3CertificateBuilder(
              name,
              newSerial(),
              Date.from(now.minus(CLOCK_SKEW)),
              Date.from(now.plus(CA_VALIDITY)),
              name,
              pair.getPublic());
      JcaX509ExtensionUtils utils = new JcaX509ExtensionUtils();
      b.addExtension(Extension.basicConstraints, true, new BasicConstraints(0));
      b.addExtension(
          Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
      b.addExtension(
          Extension.subjectKeyIdentifier,
          false,
          utils.createSubjectKeyIdentifier(pair.getPublic()));
      X509Certificate cert = sign(b, pair.getPrivate());
      CertificateAuthority ca = new CertificateAuthority(cert, pair.getPrivate());
      Credentials.writePrivate(keyFile, Pem.certificate(cert) + Pem.privateKey(pair.getPrivate()));
      Files.writeString(
          dir.resolve(CERTIFICATE_FILE), Pem.certificate(cert), StandardCharsets.US_ASCII);
      return ca;
    } catch (GeneralSecurityException | OperatorCreationException | CertIOException e) {
      throw new IOException("cannot create the cluster CA: " + e.getMessage(), e);
    }
  }

  /** The CA whose key file is {@code keyFile} (as {@link #create} wrote it). */
  public static CertificateAuthority load(Path keyFile) throws IOException {
    String text;
    try {
      text = Files.readString(keyFile, StandardCharsets.US_ASCII);
    } catch (NoSuchFileException e) {
      throw new IOException(
          "no CA key at "
              + keyFile
              + " (tessera local keeps it in <dir>/ca/ca.key; tessera ca init creates one)");
    }
    X509Certificate cert = null;
    PrivateKey key = null;
    try {
      for (Pem.Block b : Pem.blocks(text)) {
        if (b.type().equals("CERTIFICATE")) {
          cert = Pem.parseCertificate(b.der());
        } else if (b.type().equals("PRIVATE KEY")) {
          key = Pem.parsePrivateKey(b.der());
        }
      }
    } catch (IllegalArgumentException e) {
      throw new IOException("CA key file " + keyFile + ": " + e.getMessage());
    }
    if (cert == null || key == null) {
      throw new IOException(
          "CA key file " + keyFile + " must hold the CA's certificate and its private key");
    }
    return new CertificateAuthority(cert, key);
  }

  /** Whether {@code dir} holds a CA. */
  public static boolean existsIn(Path dir) {
    return Files.exists(dir.resolve(KEY_FILE));
  }

  public X509Certificate certificate() {
    return certificate;
  }

  /**
   * Credentials for a user or a server, valid for {@code validity} from now. A server's certificate
   * also names {@code hosts} (DNS names or addresses), for tools that check them.
   */
  public Credentials issue(Identity who, Duration validity, List<String> hosts) throws IOException {
    KeyPair pair = newKeyPair();
    BigInteger serial = newSerial();
    Instant now = Instant.now();
    Identity issued = who.issued(serial.toString(16), now.toEpochMilli());
    X500Name subject =
        new X500NameBuilder(BCStyle.INSTANCE)
            .addRDN(BCStyle.O, "Tessera")
            .addRDN(BCStyle.OU, who.isServer() ? "server" : "user")
            .addRDN(BCStyle.CN, who.name())
            .build();
    try {
      X509v3CertificateBuilder b =
          new JcaX509v3CertificateBuilder(
              certificate,
              serial,
              Date.from(now.minus(CLOCK_SKEW)),
              Date.from(now.plus(validity)),
              subject,
              pair.getPublic());
      JcaX509ExtensionUtils utils = new JcaX509ExtensionUtils();
      b.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
      b.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature));
      b.addExtension(
          Extension.extendedKeyUsage,
          false,
          new ExtendedKeyUsage(
              new KeyPurposeId[] {KeyPurposeId.id_kp_serverAuth, KeyPurposeId.id_kp_clientAuth}));
      b.addExtension(Extension.subjectAlternativeName, false, alternativeNames(issued, hosts));
      b.addExtension(
          Extension.authorityKeyIdentifier, false, utils.createAuthorityKeyIdentifier(certificate));
      b.addExtension(
          Extension.subjectKeyIdentifier,
          false,
          utils.createSubjectKeyIdentifier(pair.getPublic()));
      return new Credentials(certificate, sign(b, key), pair.getPrivate());
    } catch (GeneralSecurityException | OperatorCreationException | CertIOException e) {
      throw new IOException(
          "cannot issue credentials for " + who.describe() + ": " + e.getMessage(), e);
    }
  }

  private static GeneralNames alternativeNames(Identity who, List<String> hosts) {
    List<GeneralName> names = new ArrayList<>();
    names.add(new GeneralName(GeneralName.uniformResourceIdentifier, who.uri().toString()));
    for (String h : hosts) {
      names.add(
          isAddress(h)
              ? new GeneralName(GeneralName.iPAddress, h)
              : new GeneralName(GeneralName.dNSName, h));
    }
    return new GeneralNames(names.toArray(GeneralName[]::new));
  }

  private static boolean isAddress(String host) {
    if (!host.matches("[0-9.]+|[0-9a-fA-F:]+")) {
      return false;
    }
    try {
      InetAddress.getByName(host); // a literal: no lookup
      return true;
    } catch (java.net.UnknownHostException e) {
      return false;
    }
  }

  private static X509Certificate sign(X509v3CertificateBuilder b, PrivateKey signer)
      throws OperatorCreationException, GeneralSecurityException {
    return new JcaX509CertificateConverter()
        .getCertificate(b.build(new JcaContentSignerBuilder("SHA256withECDSA").build(signer)));
  }

  private static KeyPair newKeyPair() throws IOException {
    try {
      KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
      g.initialize(new ECGenParameterSpec("secp256r1"), RANDOM);
      return g.generateKeyPair();
    } catch (GeneralSecurityException e) {
      throw new IOException("this JVM cannot make ECDSA P-256 keys: " + e.getMessage(), e);
    }
  }

  /** 128 random bits, positive. */
  private static BigInteger newSerial() {
    byte[] b = new byte[16];
    RANDOM.nextBytes(b);
    b[0] &= 0x7f;
    return new BigInteger(1, b).max(BigInteger.ONE);
  }

  /** A short fingerprint of the CA's key, naming the cluster in messages. */
  public String fingerprint() {
    PublicKey pub = certificate.getPublicKey();
    try {
      byte[] d = java.security.MessageDigest.getInstance("SHA-256").digest(pub.getEncoded());
      return HexFormat.of().formatHex(d, 0, 6);
    } catch (GeneralSecurityException e) {
      return "?";
    }
  }
}
