package io.tessera.console.api;

import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import io.tessera.client.DirectoryPage;
import io.tessera.client.FileStatus;
import io.tessera.client.Futures;
import io.tessera.client.LayoutPolicy;
import io.tessera.client.RegionHolder;
import io.tessera.client.VirtualFileSystem;
import io.tessera.client.admin.ClusterAdmin;
import io.tessera.client.admin.FileCheck;
import io.tessera.common.layout.StripeLayout;
import io.tessera.common.region.Region;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/** Browsing the namespace a page at a time, with each file's layout; fsck of one file. */
public final class FileRoutes {
  static final int MAX_PAGE = 1000;

  /** Most files one fsck call checks. */
  static final int MAX_FSCK_FILES = 10_000;

  private final VirtualFileSystem fs;
  private final ClusterAdmin admin;
  private final Actions actions;

  public FileRoutes(VirtualFileSystem fs, ClusterAdmin admin, Actions actions) {
    this.fs = fs;
    this.admin = admin;
    this.actions = actions;
  }

  /** How a regular file is striped. */
  public record Layout(
      String description, int dataUnits, int parityUnits, int stripeUnit, List<String> servers) {
    static Layout of(FileStatus s) {
      StripeLayout l = s.layout();
      if (s.log() != null) {
        LayoutPolicy p = s.log().layout(); // its writers' logs each have servers of their own
        return new Layout(p.toString(), p.dataUnits(), p.parityUnits(), p.stripeUnit(), List.of());
      }
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
          Layout.of(s),
          s.staleServers());
    }
  }

  /** A holder of a file's region lock ({@code range} set) or sharing intent. */
  public record LockHolder(
      String client, long offset, long length, String mode, long leaseLeftMs, boolean calledBack) {
    static LockHolder of(RegionHolder h) {
      Region r = h.region();
      return new LockHolder(
          h.client(),
          r == null ? 0 : r.start(),
          r == null ? 0 : r.length(),
          r == null ? "intent: " + h.sharing() : r.exclusive() ? "exclusive" : "shared",
          h.leaseLeft().toMillis(),
          h.calledBack());
    }
  }

  /**
   * A directory's page of entries (next: give it as {@code after} for the next page); for a file,
   * who holds its region locks and sharing intents.
   */
  public record Listing(Entry self, List<Entry> entries, String next, List<LockHolder> locks) {}

  /** What fsck found, with its one-line verdict. */
  public record Check(FileCheck check, boolean healthy, String verdict) {
    static Check of(FileCheck c) {
      return new Check(c, c.healthy(), c.verdict());
    }
  }

  /**
   * Fsck of a path: every file under it, up to {@code limit} files (then {@code truncated}; the
   * CLI's tessera fsck has no bound).
   */
  public record Checks(
      String path,
      int files,
      long healthy,
      long degraded,
      long damaged,
      boolean truncated,
      List<Check> checks) {}

  public record RepairRequest(String path) {}

  public void register(RoutesConfig routes) {
    routes.get("/api/v1/files", this::list);
    routes.get("/api/v1/fsck", this::fsck);
    routes.post("/api/v1/fsck/repair", this::repair);
  }

  private void list(Context ctx) throws IOException {
    String path = Requests.path(ctx, "path");
    FileStatus self = Futures.get(fs.stat(path));
    if (!self.directory()) {
      ctx.json(
          new Listing(
              Entry.of(self),
              List.of(),
              null,
              Futures.get(fs.regionHolders(path)).stream().map(LockHolder::of).toList()));
      return;
    }
    String after = ctx.queryParam("after");
    int limit = (int) Requests.number(ctx, "limit", 200, 1, MAX_PAGE);
    DirectoryPage page = Futures.get(fs.list(path, after == null ? "" : after, limit));
    ctx.json(
        new Listing(
            Entry.of(self),
            page.entries().stream().map(Entry::of).toList(),
            page.more() ? page.lastName() : null,
            List.of()));
  }

  private void fsck(Context ctx) throws IOException {
    String path = Requests.path(ctx, "path");
    boolean parity = "true".equals(ctx.queryParam("parity"));
    int limit = (int) Requests.number(ctx, "limit", 1000, 1, MAX_FSCK_FILES);
    List<Check> checks = new ArrayList<>();
    Deque<String> dirs = new ArrayDeque<>();
    FileStatus top = Futures.get(fs.stat(path));
    if (top.directory()) {
      dirs.add(path);
    } else {
      checks.add(Check.of(admin.check(path, parity)));
    }
    boolean truncated = false;
    while (!dirs.isEmpty() && !truncated) {
      String dir = dirs.poll();
      String after = "";
      boolean more = true;
      while (more && !truncated) {
        DirectoryPage page = Futures.get(fs.list(dir, after, MAX_PAGE));
        for (FileStatus s : page.entries()) {
          if (s.directory()) {
            dirs.add(s.path());
          } else if (checks.size() == limit) {
            truncated = true;
            break;
          } else {
            checks.add(Check.of(admin.check(s.path(), parity)));
          }
        }
        more = page.more();
        after = page.lastName();
      }
    }
    long damaged = checks.stream().filter(c -> c.verdict().equals("DAMAGED")).count();
    long degraded = checks.stream().filter(c -> c.verdict().equals("DEGRADED")).count();
    ctx.json(
        new Checks(
            path,
            checks.size(),
            checks.size() - damaged - degraded,
            degraded,
            damaged,
            truncated,
            checks));
  }

  private void repair(Context ctx) throws IOException {
    RepairRequest req = Requests.body(ctx, RepairRequest.class);
    String path = Requests.checkPath(req.path() == null ? "" : req.path());
    actions.run(
        ctx,
        "fsck.repair",
        path,
        Actions.Audit.HERE,
        as -> {
          FileCheck c = as.check(path, true);
          if (c.repairable()) {
            as.repair(c);
          }
          return Check.of(c);
        });
  }
}
