package io.tessera.common.security;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Set;

/**
 * What a user or a server proves itself with: the cluster CA's certificate (whom to trust), its own
 * certificate (who it is, signed by that CA) and its private key. Stored as one PEM file, readable
 * by its owner alone.
 */
public final class Credentials {
  private final X509Certificate ca;
  private final X509Certificate certificate;
  private final PrivateKey key;
  private final Identity identity;

  public Credentials(X509Certificate ca, X509Certificate certificate, PrivateKey key) {
    this.ca = ca;
    this.certificate = certificate;
    this.key = key;
    this.identity = Identity.of(certificate);
  }

  /**
   * Reads a credentials file: the CA's certificate first, then the holder's, then its private key.
   *
   * @throws IOException when the file cannot be read or holds no complete credentials; the message
   *     says which file and what is missing
   */
  public static Credentials load(Path file) throws IOException {
    String text;
    try {
      text = Files.readString(file, StandardCharsets.US_ASCII);
    } catch (NoSuchFileException e) {
      throw new IOException("credentials file " + file + " does not exist");
    }
    List<Pem.Block> blocks = Pem.blocks(text);
    List<Pem.Block> certs = blocks.stream().filter(b -> b.type().equals("CERTIFICATE")).toList();
    List<Pem.Block> keys = blocks.stream().filter(b -> b.type().equals("PRIVATE KEY")).toList();
    if (certs.size() != 2 || keys.size() != 1) {
      throw new IOException(
          "credentials file "
              + file
              + " holds "
              + certs.size()
              + " certificates and "
              + keys.size()
              + " private keys; it must hold the cluster CA's certificate, the holder's certificate"
              + " and its private key (tessera credentials issue writes one)");
    }
    try {
      return new Credentials(
          Pem.parseCertificate(certs.get(0).der()),
          Pem.parseCertificate(certs.get(1).der()),
          Pem.parsePrivateKey(keys.get(0).der()));
    } catch (IllegalArgumentException e) {
      throw new IOException("credentials file " + file + ": " + e.getMessage());
    }
  }

  /** Writes the file (replacing one there) readable and writable by its owner alone. */
  public void write(Path file) throws IOException {
    writePrivate(file, Pem.certificate(ca) + Pem.certificate(certificate) + Pem.privateKey(key));
  }

  /** Writes text to a file of mode 0600, atomically (a reader never sees half of it). */
  public static void writePrivate(Path file, String text) throws IOException {
    Path dir = file.toAbsolutePath().getParent();
    Files.createDirectories(dir);
    Path tmp = dir.resolve("." + file.getFileName() + ".tmp");
    Files.deleteIfExists(tmp);
    Set<PosixFilePermission> ownerOnly = PosixFilePermissions.fromString("rw-------");
    Files.createFile(tmp, PosixFilePermissions.asFileAttribute(ownerOnly));
    Files.writeString(tmp, text, StandardCharsets.US_ASCII);
    Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  public X509Certificate ca() {
    return ca;
  }

  public X509Certificate certificate() {
    return certificate;
  }

  public PrivateKey key() {
    return key;
  }

  public Identity identity() {
    return identity;
  }
}
