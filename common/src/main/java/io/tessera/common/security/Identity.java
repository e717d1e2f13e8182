package io.tessera.common.security;

import java.net.URI;
import java.net.URISyntaxException;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Who a certificate of the cluster CA names: a user (name, uid, gid, groups, admin or not) or a
 * server (its id and role). It travels inside the certificate as a subject alternative name, {@code
 * tessera://user/NAME?uid=..&gid=..&groups=..&admin=..&issued=..} or {@code
 * tessera://server/ID?role=..&issued=..}, so it is exactly what the CA signed and never a field a
 * caller sends.
 *
 * @param serial the certificate's serial number (hex), what a revocation of one certificate names
 * @param issuedMs when the CA signed it; a revocation of a name refuses the certificates issued
 *     before it
 */
public record Identity(
    Kind kind,
    String name,
    Role role,
    int uid,
    int gid,
    List<Integer> groups,
    boolean admin,
    String serial,
    long issuedMs) {
  /** The scheme of the subject alternative name that carries an identity. */
  static final String SCHEME = "tessera";

  /** Users and the processes of the cluster. */
  public enum Kind {
    USER,
    SERVER
  }

  /** What a server is; each port accepts server-only requests from some roles alone. */
  public enum Role {
    META,
    DATA,
    PROXY,
    GATEWAY
  }

  /** The uid AUTH_SYS and POSIX call root. */
  public static final int ROOT_UID = 0;

  /** Where root is squashed to (NFS's anonuid) and who read-only callers are. */
  public static final int NOBODY = 65534;

  public Identity {
    groups = List.copyOf(groups);
    if (kind == Kind.SERVER && role == null) {
      throw new IllegalArgumentException("a server identity needs a role");
    }
    requireValidName(name);
  }

  /** A user. */
  public static Identity user(
      String name, int uid, int gid, Collection<Integer> groups, boolean admin) {
    return new Identity(Kind.USER, name, null, uid, gid, List.copyOf(groups), admin, "", 0);
  }

  /** A server of the cluster: acts as root in the namespace. */
  public static Identity server(String id, Role role) {
    return new Identity(Kind.SERVER, id, role, ROOT_UID, ROOT_UID, List.of(), false, "", 0);
  }

  /** The same identity as issued in a certificate with this serial at this time. */
  public Identity issued(String serialHex, long atMs) {
    return new Identity(kind, name, role, uid, gid, groups, admin, serialHex, atMs);
  }

  /** Refuses names that would not survive a certificate, a log line or a URI. */
  public static void requireValidName(String name) {
    if (name == null || !name.matches("[A-Za-z0-9][A-Za-z0-9._@-]{0,63}")) {
      throw new IllegalArgumentException(
          "name '"
              + name
              + "': 1 to 64 letters, digits, '.', '_', '@' or '-', starting with a letter or digit");
    }
  }

  public boolean isServer() {
    return kind == Kind.SERVER;
  }

  /** Whether this is a server of one of these roles. */
  public boolean isServer(Role... roles) {
    if (kind != Kind.SERVER) {
      return false;
    }
    for (Role r : roles) {
      if (r == role) {
        return true;
      }
    }
    return false;
  }

  /** How a log line or an error names it: "user bob (uid 1001)", "server ds-1 (data)". */
  public String describe() {
    return kind == Kind.USER
        ? "user " + name + " (uid " + uid + (admin ? ", admin" : "") + ")"
        : "server " + name + " (" + role.name().toLowerCase(Locale.ROOT) + ")";
  }

  /** The subject alternative name that carries this identity in a certificate. */
  public URI uri() {
    Map<String, String> q = new LinkedHashMap<>();
    if (kind == Kind.USER) {
      q.put("uid", Integer.toUnsignedString(uid));
      q.put("gid", Integer.toUnsignedString(gid));
      if (!groups.isEmpty()) {
        q.put(
            "groups",
            groups.stream().map(Integer::toUnsignedString).collect(Collectors.joining(",")));
      }
      q.put("admin", Boolean.toString(admin));
    } else {
      q.put("role", role.name().toLowerCase(Locale.ROOT));
    }
    q.put("issued", Long.toString(issuedMs));
    String query =
        q.entrySet().stream()
            .map(e -> e.getKey() + "=" + e.getValue())
            .collect(Collectors.joining("&"));
    return URI.create(
        SCHEME + "://" + kind.name().toLowerCase(Locale.ROOT) + "/" + name + "?" + query);
  }

  /**
   * The identity a certificate of the cluster CA carries.
   *
   * @throws IllegalArgumentException when it carries none, or a malformed one
   */
  public static Identity of(X509Certificate cert) {
    String serial = cert.getSerialNumber().toString(16);
    Collection<List<?>> names;
    try {
      names = cert.getSubjectAlternativeNames();
    } catch (CertificateParsingException e) {
      throw new IllegalArgumentException("unreadable subject alternative names: " + e.getMessage());
    }
    if (names != null) {
      for (List<?> n : names) {
        // 6: uniformResourceIdentifier
        if (n.size() == 2
            && Integer.valueOf(6).equals(n.get(0))
            && n.get(1) instanceof String s
            && s.startsWith(SCHEME + "://")) {
          return parse(s, serial);
        }
      }
    }
    throw new IllegalArgumentException(
        "certificate "
            + cert.getSubjectX500Principal().getName()
            + " names no Tessera user or server (it was not issued by tessera credentials issue)");
  }

  static Identity parse(String uriText, String serial) {
    URI uri;
    try {
      uri = new URI(uriText);
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException("malformed identity " + uriText);
    }
    String path = uri.getPath() == null ? "" : uri.getPath();
    String name = path.startsWith("/") ? path.substring(1) : path;
    Map<String, String> q = new LinkedHashMap<>();
    if (uri.getQuery() != null) {
      for (String part : uri.getQuery().split("&")) {
        int eq = part.indexOf('=');
        if (eq > 0) {
          q.put(part.substring(0, eq), part.substring(eq + 1));
        }
      }
    }
    try {
      long issued = Long.parseLong(q.getOrDefault("issued", "0"));
      if ("user".equals(uri.getHost())) {
        List<Integer> groups = new ArrayList<>();
        String g = q.getOrDefault("groups", "");
        if (!g.isEmpty()) {
          for (String one : g.split(",")) {
            groups.add(Integer.parseUnsignedInt(one));
          }
        }
        return new Identity(
            Kind.USER,
            name,
            null,
            Integer.parseUnsignedInt(q.get("uid")),
            Integer.parseUnsignedInt(q.get("gid")),
            groups,
            Boolean.parseBoolean(q.get("admin")),
            serial,
            issued);
      }
      if ("server".equals(uri.getHost())) {
        Role role = Role.valueOf(q.get("role").toUpperCase(Locale.ROOT));
        return new Identity(
            Kind.SERVER, name, role, ROOT_UID, ROOT_UID, List.of(), false, serial, issued);
      }
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("malformed identity " + uriText + ": " + e.getMessage());
    }
    throw new IllegalArgumentException("identity " + uriText + " is neither a user nor a server");
  }
}
