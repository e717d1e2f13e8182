package io.tessera.common.security;

import java.net.Socket;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedKeyManager;

/**
 * Presents this process's one certificate, whatever the peer asks. Handing Netty the key and
 * certificate instead makes it build a PKCS#12 key store around them, encrypting and decrypting the
 * key with a password-based cipher: about half a second of CPU per context, at every server start.
 */
final class OwnKeyManager extends X509ExtendedKeyManager {
  private static final String ALIAS = "tessera";

  private final Credentials credentials;

  OwnKeyManager(Credentials credentials) {
    this.credentials = credentials;
  }

  @Override
  public String[] getClientAliases(String keyType, Principal[] issuers) {
    return new String[] {ALIAS};
  }

  @Override
  public String chooseClientAlias(String[] keyType, Principal[] issuers, Socket socket) {
    return ALIAS;
  }

  @Override
  public String chooseEngineClientAlias(String[] keyType, Principal[] issuers, SSLEngine engine) {
    return ALIAS;
  }

  @Override
  public String[] getServerAliases(String keyType, Principal[] issuers) {
    return new String[] {ALIAS};
  }

  @Override
  public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
    return ALIAS;
  }

  @Override
  public String chooseEngineServerAlias(String keyType, Principal[] issuers, SSLEngine engine) {
    return ALIAS;
  }

  @Override
  public X509Certificate[] getCertificateChain(String alias) {
    return new X509Certificate[] {credentials.certificate()};
  }

  @Override
  public PrivateKey getPrivateKey(String alias) {
    return credentials.key();
  }
}
