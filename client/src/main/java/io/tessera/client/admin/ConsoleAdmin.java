package io.tessera.client.admin;

import com.google.protobuf.ByteString;
import io.tessera.client.Futures;
import io.tessera.client.internal.MetaClient;
import io.tessera.common.proto.AuditAppendRequestProto;
import io.tessera.common.proto.AuditEntryProto;
import io.tessera.common.proto.AuditListRequestProto;
import io.tessera.common.proto.ConsoleTokenListRequestProto;
import io.tessera.common.proto.ConsoleTokenProto;
import io.tessera.common.proto.ConsoleTokenSetRequestProto;
import io.tessera.common.proto.MetaRequestProto;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Optional;

/**
 * Console tokens and the audit log, both replicated in the meta group: every replica's console
 * accepts the same tokens, and the log survives restarts and leader changes. A token is {@code
 * tsr_<id>_<secret>}; the meta group keeps only the SHA-256 of the secret.
 */
public final class ConsoleAdmin {
  private static final String PREFIX = "tsr_";
  private static final SecureRandom RANDOM = new SecureRandom();
  private static final char[] ID_CHARS = "abcdefghijklmnopqrstuvwxyz0123456789".toCharArray();

  private final MetaClient meta;

  ConsoleAdmin(MetaClient meta) {
    this.meta = meta;
  }

  /**
   * A token as listed (never its secret).
   *
   * @param admin may act (create, delete and restore snapshots, repair, change QoS settings); else
   *     it may only look
   */
  public record Token(String id, String name, boolean admin, Instant created) {
    /** "admin" or "read-only". */
    public String role() {
      return admin ? "admin" : "read-only";
    }

    static Token of(ConsoleTokenProto p) {
      return new Token(
          p.getId(), p.getName(), p.getAdmin(), Instant.ofEpochMilli(p.getCreatedMs()));
    }
  }

  /** A token just created, with the bearer string to hand to its user (shown once). */
  public record NewToken(Token token, String bearer) {}

  /**
   * One console action.
   *
   * @param seq its number in the log (0 before it is appended)
   * @param result "ok", or why it failed
   */
  public record AuditEntry(
      long seq,
      Instant time,
      String who,
      String from,
      String action,
      String target,
      String result) {
    static AuditEntry of(AuditEntryProto p) {
      return new AuditEntry(
          p.getSeq(),
          Instant.ofEpochMilli(p.getTimeMs()),
          p.getWho(),
          p.getFrom(),
          p.getAction(),
          p.getTarget(),
          p.getResult());
    }
  }

  /** The tokens at one moment, able to check a bearer string against their hashes. */
  public static final class TokenSet {
    private final List<ConsoleTokenProto> tokens;

    private TokenSet(List<ConsoleTokenProto> tokens) {
      this.tokens = tokens;
    }

    /** The token a bearer string is, if it is one of these (compared in constant time). */
    public Optional<Token> verify(String bearer) {
      Optional<String[]> parts = parse(bearer);
      if (parts.isEmpty()) {
        return Optional.empty();
      }
      byte[] hash = sha256(parts.get()[1]);
      for (ConsoleTokenProto t : tokens) {
        if (t.getId().equals(parts.get()[0])
            && MessageDigest.isEqual(t.getSecretSha256().toByteArray(), hash)) {
          return Optional.of(Token.of(t));
        }
      }
      return Optional.empty();
    }
  }

  /** Creates a token; its bearer string is returned once and cannot be recovered later. */
  public NewToken createToken(String name, boolean admin) throws IOException {
    StringBuilder id = new StringBuilder();
    for (int i = 0; i < 12; i++) {
      id.append(ID_CHARS[RANDOM.nextInt(ID_CHARS.length)]);
    }
    byte[] raw = new byte[32];
    RANDOM.nextBytes(raw);
    String secret = Base64.getUrlEncoder().withoutPadding().encodeToString(raw);
    ConsoleTokenProto token =
        ConsoleTokenProto.newBuilder()
            .setId(id.toString())
            .setName(name)
            .setAdmin(admin)
            .setSecretSha256(ByteString.copyFrom(sha256(secret)))
            .setCreatedMs(System.currentTimeMillis())
            .build();
    Futures.get(
        meta.call(
            MetaRequestProto.newBuilder()
                .setConsoleTokenSet(ConsoleTokenSetRequestProto.newBuilder().setToken(token))));
    return new NewToken(Token.of(token), PREFIX + id + "_" + secret);
  }

  /** Every token, oldest first. */
  public List<Token> tokens() throws IOException {
    return tokenProtos().stream()
        .map(Token::of)
        .sorted((a, b) -> a.created().compareTo(b.created()))
        .toList();
  }

  /** The tokens now, to check bearer strings against. */
  public TokenSet tokenSet() throws IOException {
    return new TokenSet(tokenProtos());
  }

  /** Revokes a token by id (or by its whole bearer string); NOT_FOUND when there is none. */
  public void revoke(String idOrBearer) throws IOException {
    String id = tokenId(idOrBearer);
    Futures.get(
        meta.call(
            MetaRequestProto.newBuilder()
                .setConsoleTokenSet(
                    ConsoleTokenSetRequestProto.newBuilder()
                        .setToken(ConsoleTokenProto.newBuilder().setId(id))
                        .setRevoke(true))));
  }

  /**
   * The id a token is revoked by: {@code idOrBearer} itself, or the id inside a whole token.
   *
   * @throws IllegalArgumentException when it is neither
   */
  public static String tokenId(String idOrBearer) {
    String id = parse(idOrBearer).map(p -> p[0]).orElse(idOrBearer);
    if (!id.matches("[a-z0-9]{4,32}")) {
      throw new IllegalArgumentException(
          "'"
              + idOrBearer
              + "' is neither a console token's id (4 to 32 lowercase letters or digits, as"
              + " tessera console token list shows) nor a whole token");
    }
    return id;
  }

  /** Appends an action to the audit log; returns it numbered. */
  public AuditEntry record(String who, String from, String action, String target, String result)
      throws IOException {
    AuditEntryProto entry =
        AuditEntryProto.newBuilder()
            .setTimeMs(System.currentTimeMillis())
            .setWho(who)
            .setFrom(from)
            .setAction(action)
            .setTarget(target)
            .setResult(result)
            .build();
    return AuditEntry.of(
        Futures.get(
                meta.call(
                    MetaRequestProto.newBuilder()
                        .setAuditAppend(AuditAppendRequestProto.newBuilder().setEntry(entry))))
            .getAudit()
            .getEntries(0));
  }

  /** Audit entries newest first: those before {@code beforeSeq} (0: the newest), at most limit. */
  public List<AuditEntry> audit(long beforeSeq, int limit) throws IOException {
    return Futures.get(
            meta.call(
                MetaRequestProto.newBuilder()
                    .setAuditList(
                        AuditListRequestProto.newBuilder()
                            .setBeforeSeq(beforeSeq)
                            .setLimit(limit))))
        .getAudit()
        .getEntriesList()
        .stream()
        .map(AuditEntry::of)
        .toList();
  }

  private List<ConsoleTokenProto> tokenProtos() throws IOException {
    return Futures.get(
            meta.call(
                MetaRequestProto.newBuilder()
                    .setConsoleTokenList(ConsoleTokenListRequestProto.getDefaultInstance())))
        .getConsoleTokens()
        .getTokensList();
  }

  /** {id, secret} of a well-formed bearer string. */
  private static Optional<String[]> parse(String bearer) {
    if (bearer == null || !bearer.startsWith(PREFIX) || bearer.length() > 128) {
      return Optional.empty();
    }
    int sep = bearer.indexOf('_', PREFIX.length());
    if (sep < 0) {
      return Optional.empty();
    }
    return Optional.of(
        new String[] {bearer.substring(PREFIX.length(), sep), bearer.substring(sep + 1)});
  }

  private static byte[] sha256(String secret) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(secret.getBytes(StandardCharsets.UTF_8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("this JVM has no SHA-256", e);
    }
  }
}
