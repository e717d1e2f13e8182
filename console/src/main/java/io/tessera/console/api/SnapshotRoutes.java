package io.tessera.console.api;

import io.javalin.config.RoutesConfig;
import io.javalin.http.Context;
import io.tessera.client.admin.SnapshotChange;
import io.tessera.client.admin.SnapshotInfo;
import io.tessera.client.admin.Snapshots;
import java.io.IOException;
import java.util.List;

/** Snapshots: list (paged), create, delete, restore a path or everything, diff two. */
public final class SnapshotRoutes {
  static final int MAX_PAGE = 1000;

  private final Snapshots snapshots;
  private final Actions actions;

  public SnapshotRoutes(Snapshots snapshots, Actions actions) {
    this.snapshots = snapshots;
    this.actions = actions;
  }

  /** A page of snapshots, oldest first; {@code total} of them in all. */
  public record Page(List<SnapshotInfo> snapshots, int offset, int total) {}

  public record CreateRequest(String name) {}

  /** Restore {@code path}, or with {@code all} the whole file system (every path but snapshots). */
  public record RestoreRequest(String path, Boolean all) {}

  /** A page of changes from one snapshot to another. */
  public record Diff(String from, String to, List<SnapshotChange> changes, int offset, int total) {}

  public void register(RoutesConfig routes) {
    routes.get("/api/v1/snapshots", this::list);
    routes.post("/api/v1/snapshots", this::create);
    routes.delete("/api/v1/snapshots/{name}", this::delete);
    routes.post("/api/v1/snapshots/{name}/restore", this::restore);
    routes.get("/api/v1/snapshots/{name}/diff", this::diff);
  }

  private void list(Context ctx) throws IOException {
    int offset = (int) Requests.number(ctx, "offset", 0, 0, Integer.MAX_VALUE);
    int limit = (int) Requests.number(ctx, "limit", 100, 1, MAX_PAGE);
    List<SnapshotInfo> all =
        "true".equals(ctx.queryParam("usage")) ? snapshots.listWithUsage() : snapshots.list();
    ctx.json(new Page(page(all, offset, limit), offset, all.size()));
  }

  private void create(Context ctx) throws IOException {
    CreateRequest req = Requests.body(ctx, CreateRequest.class);
    if (req.name() == null || req.name().isEmpty()) {
      throw new ApiException(400, "give the snapshot a name: {\"name\": \"nightly\"}");
    }
    actions.run(
        ctx,
        "snapshot.create",
        req.name(),
        Actions.Audit.BY_META_GROUP,
        as -> as.snapshots().create(req.name()));
    ctx.status(201);
  }

  private void delete(Context ctx) throws IOException {
    String name = existing(ctx.pathParam("name"));
    actions.run(
        ctx,
        "snapshot.delete",
        name,
        Actions.Audit.BY_META_GROUP,
        as -> {
          as.snapshots().delete(name);
          return new CreateRequest(name);
        });
  }

  private void restore(Context ctx) throws IOException {
    RestoreRequest req = Requests.body(ctx, RestoreRequest.class);
    boolean all = Boolean.TRUE.equals(req.all());
    if (all == (req.path() != null)) {
      throw new ApiException(
          400,
          "give either a path ({\"path\": \"/data/a\"}) or the whole file system ({\"all\": true})");
    }
    String path = all ? "/" : Requests.checkPath(req.path());
    String name = existing(ctx.pathParam("name"));
    actions.run(
        ctx,
        all ? "snapshot.restore-all" : "snapshot.restore",
        name + ":" + path,
        Actions.Audit.HERE,
        as -> as.snapshots().restore(name, path, null));
  }

  private void diff(Context ctx) throws IOException {
    String from = existing(ctx.pathParam("name"));
    String toParam = ctx.queryParam("to");
    if (toParam == null || toParam.isEmpty()) {
      throw new ApiException(400, "give 'to', the snapshot to compare " + from + " with");
    }
    String to = existing(toParam);
    int offset = (int) Requests.number(ctx, "offset", 0, 0, Integer.MAX_VALUE);
    int limit = (int) Requests.number(ctx, "limit", 100, 1, MAX_PAGE);
    List<SnapshotChange> changes = snapshots.diff(from, to);
    ctx.json(new Diff(from, to, page(changes, offset, limit), offset, changes.size()));
  }

  /** 404 naming the snapshot unless it exists. */
  private String existing(String name) throws IOException {
    if (snapshots.list().stream().noneMatch(s -> s.name().equals(name))) {
      throw new ApiException(
          404, "no snapshot named '" + name + "' (GET /api/v1/snapshots lists them)");
    }
    return name;
  }

  private static <T> List<T> page(List<T> all, int offset, int limit) {
    return offset >= all.size()
        ? List.of()
        : all.subList(offset, Math.min(all.size(), offset + limit));
  }
}
