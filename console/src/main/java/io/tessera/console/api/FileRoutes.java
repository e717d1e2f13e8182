package io.tessera.console.api;

import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import io.tessera.client.DirectoryPage;
import io.tessera.client.FileStatus;
import io.tessera.client.Futures;
import io.tessera.client.TesseraFileSystem;
import io.tessera.client.admin.ClusterAdmin;
import io.tessera.client.admin.FileCheck;
import io.tessera.common.layout.StripeLayout;
import java.io.IOException;
import java.util.List;

/** Browsing the namespace a page at a time, with each file's layout; fsck of one file. */
public final class FileRoutes {
  static final int MAX_PAGE = 1000;

  private final TesseraFileSystem fs;
  private final ClusterAdmin admin;
  private final Actions actions;

  public FileRoutes(TesseraFileSystem fs, Actions actions) {
    this.fs = fs;
    this.admin = fs.admin();
    this.actions = actions;
  }

  /** How a regular file is striped. */
  public record Layout(
      String description, int dataUnits, int parityUnits, int stripeUnit, List<String> servers) {
    static Layout of(StripeLayout l) {
      return l == null
          ? null
          : new Layout(l.toString(), l.dataUnits(), l.parityUnits(), l.stripeUnit(), l.servers());
    }
  }

  /** A file or directory as the browser lists it. */
  public record Entry(
      String name,
      String path,
      boolean directory,
      long size,
      String mode,
      int uid,
      int gid,
      long modifiedMs,
      long fileId,
      Layout layout,
      List<String> staleServers) {
    static Entry of(FileStatus s) {
      return new Entry(
          s.name(),
          s.path(),
          s.directory(),
          s.size(),
          String.format("%04o", s.mode() & 07777),
          s.owner().uid(),
          s.owner().gid(),
          s.modified().toEpochMilli(),
          s.fileId(),
          Layout.of(s.layout()),
          s.staleServers());
    }
  }

  /** A directory's page of entries (next: give it as {@code after} for the next page). */
  public record Listing(Entry self, List<Entry> entries, String next) {}

  /** What fsck found, with its one-line verdict. */
  public record Check(FileCheck check, boolean healthy, String verdict) {}

  public record RepairRequest(String path) {}

  public void register(RoutesConfig routes) {
    routes.get("/api/v1/files", this::list);
    routes.get("/api/v1/fsck", this::fsck);
    routes.post("/api/v1/fsck/repair", this::repair);
  }

  private void list(Context ctx) throws IOException {
    String path = Requests.path(ctx, "path");
    FileStatus self = fs.stat(path);
    if (!self.directory()) {
      ctx.json(new Listing(Entry.of(self), List.of(), null));
      return;
    }
    String after = ctx.queryParam("after");
    int limit = (int) Requests.number(ctx, "limit", 200, 1, MAX_PAGE);
    DirectoryPage page = Futures.get(fs.async().list(path, after == null ? "" : after, limit));
    ctx.json(
        new Listing(
            Entry.of(self),
            page.entries().stream().map(Entry::of).toList(),
            page.more() ? page.lastName() : null));
  }

  private void fsck(Context ctx) throws IOException {
    String path = Requests.path(ctx, "path");
    boolean parity = "true".equals(ctx.queryParam("parity"));
    FileCheck c = admin.check(path, parity);
    ctx.json(new Check(c, c.healthy(), c.verdict()));
  }

  private void repair(Context ctx) throws IOException {
    RepairRequest req = Requests.body(ctx, RepairRequest.class);
    String path = Requests.checkPath(req.path() == null ? "" : req.path());
    actions.run(
        ctx,
        "fsck.repair",
        path,
        () -> {
          FileCheck c = admin.check(path, true);
          if (c.repairable()) {
            admin.repair(c);
          }
          return new Check(c, c.healthy(), c.verdict());
        });
  }
}
