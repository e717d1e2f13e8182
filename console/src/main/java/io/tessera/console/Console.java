package io.tessera.console;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.ToStringSerializer;
import io.javalin.Javalin;
import io.javalin.config.JavalinConfig;
import io.javalin.http.Context;
import io.javalin.http.HttpResponseException;
import io.javalin.http.staticfiles.Location;
import io.javalin.json.JavalinJackson;
import io.tessera.client.VirtualFileSystem;
import io.tessera.client.admin.ClusterAdmin;
import io.tessera.common.metrics.ServerMetrics;
import io.tessera.common.rpc.HostPort;
import io.tessera.common.status.TesseraException;
import io.tessera.console.api.Actions;
import io.tessera.console.api.ApiException;
import io.tessera.console.api.AuditRoutes;
import io.tessera.console.api.ClusterRoutes;
import io.tessera.console.api.FileRoutes;
import io.tessera.console.api.QosRoutes;
import io.tessera.console.api.SnapshotRoutes;
import io.tessera.console.auth.BearerAuth;
import io.tessera.console.watch.ClusterWatch;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.time.Instant;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP side of a meta replica: {@code /api/v1} (bearer tokens, see {@link BearerAuth}), the web
 * page at {@code /}, the OpenAPI document at {@code /api/v1/openapi.json} and the replica's
 * Prometheus metrics at {@code /metrics}. Any replica serves every call: it acts through the client
 * library, which sends changes to the meta leader.
 */
public final class Console implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(Console.class);

  /** Largest request body: every action's body is a few fields. */
  static final long MAX_BODY_BYTES = 64 * 1024;

  private static final String OPENAPI = "/api/v1/openapi.json";

  private final Javalin http;
  private final ClusterWatch watch;

  private Console(Javalin http, ClusterWatch watch) {
    this.http = http;
    this.watch = watch;
  }

  /**
   * Serves at {@code at}, browsing files through {@code fs} and acting on the cluster through
   * {@code admin}.
   */
  public static Console start(
      HostPort at, VirtualFileSystem fs, ClusterAdmin admin, ServerMetrics metrics)
      throws IOException {
    ClusterWatch watch = new ClusterWatch(admin);
    BearerAuth auth = new BearerAuth(admin.console());
    Actions actions = new Actions(admin);
    byte[] openApi = resource("openapi.json");
    Javalin http =
        Javalin.create(
            config -> {
              settings(config);
              config.routes.before(Console::securityHeaders);
              config.routes.before(
                  "/api/*",
                  ctx -> {
                    if (!ctx.path().equals(OPENAPI)) {
                      auth.authenticate(ctx);
                    }
                  });
              config.routes.get(
                  OPENAPI, ctx -> ctx.contentType("application/json").result(openApi));
              config.routes.get(
                  "/metrics",
                  ctx -> {
                    ctx.contentType(ServerMetrics.textContentType());
                    metrics.writeText(ctx.outputStream());
                  });
              new ClusterRoutes(admin, watch).register(config.routes);
              new FileRoutes(fs, admin, actions).register(config.routes);
              new SnapshotRoutes(admin.snapshots(), actions).register(config.routes);
              new QosRoutes(admin.qos(), actions).register(config.routes);
              new AuditRoutes(admin.console()).register(config.routes);
              errors(config);
            });
    try {
      http.start(at.host(), at.port());
    } catch (RuntimeException e) {
      throw new IOException("cannot serve the console on " + at + ": " + e.getMessage(), e);
    }
    watch.start();
    return new Console(http, watch);
  }

  private static void settings(JavalinConfig config) {
    config.startup.showJavalinBanner = false;
    config.startup.showOldJavalinVersionWarning = false;
    config.http.maxRequestSize = MAX_BODY_BYTES;
    ObjectMapper mapper =
        new ObjectMapper()
            .registerModule(
                new SimpleModule().addSerializer(Instant.class, ToStringSerializer.instance));
    config.jsonMapper(new JavalinJackson(mapper, false));
    config.staticFiles.add(
        files -> {
          files.hostedPath = "/";
          files.directory = "/io/tessera/console/web";
          files.location = Location.CLASSPATH;
        });
  }

  /** The page loads only its own scripts and styles, and no other site may frame it. */
  private static void securityHeaders(Context ctx) {
    ctx.header("X-Content-Type-Options", "nosniff");
    ctx.header("X-Frame-Options", "DENY");
    ctx.header("Referrer-Policy", "no-referrer");
    ctx.header(
        "Content-Security-Policy",
        "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; frame-ancestors 'none'");
  }

  private static void errors(JavalinConfig config) {
    config.routes.exception(ApiException.class, (e, ctx) -> error(ctx, e.status(), e.getMessage()));
    config.routes.exception(
        TesseraException.class, (e, ctx) -> error(ctx, httpStatus(e), e.getMessage()));
    config.routes.exception(
        IllegalArgumentException.class, (e, ctx) -> error(ctx, 400, e.getMessage()));
    config.routes.exception(
        HttpResponseException.class, (e, ctx) -> error(ctx, e.getStatus(), e.getMessage()));
    config.routes.exception(
        Exception.class,
        (e, ctx) -> {
          LOG.warn("Console call {} {} failed: {}", ctx.method(), ctx.path(), e.toString());
          error(ctx, 500, "the console failed: " + e.getMessage());
        });
  }

  private static void error(Context ctx, int status, String message) {
    ctx.status(status).json(Map.of("error", message == null ? "failed" : message));
    if (status == 401) {
      ctx.header("WWW-Authenticate", "Bearer");
    }
  }

  private static int httpStatus(TesseraException e) {
    return switch (e.status()) {
      case NOT_FOUND -> 404;
      case EXISTS, NOT_EMPTY, READ_ONLY -> 409;
      case INVALID_ARGUMENT, NOT_DIRECTORY, IS_DIRECTORY -> 400;
      case NOT_LEADER, UNAVAILABLE, BUSY, NO_SPACE -> 503;
      default -> 500;
    };
  }

  private static byte[] resource(String name) throws IOException {
    try (InputStream in = Console.class.getResourceAsStream(name)) {
      if (in == null) {
        throw new IOException("the console's " + name + " is missing from its jar");
      }
      return in.readAllBytes();
    }
  }

  public int port() {
    return http.port();
  }

  @Override
  public void close() {
    watch.close();
    http.stop();
  }
}
