package io.tessera.meta.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.tessera.common.proto.MetaRequestProto;
import io.tessera.common.proto.MetaResponseProto;
import io.tessera.common.proto.MkdirRequestProto;
import io.tessera.meta.proto.MetaTxnBatchProto;
import io.tessera.meta.proto.MetaTxnBatchReplyProto;
import io.tessera.meta.proto.MetaTxnProto;
import io.tessera.meta.proto.MetaTxnReplyProto;
import io.tessera.meta.ratis.LogBytes;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.ratis.protocol.ClientId;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftPeerId;
import org.junit.jupiter.api.Test;

class TxnBatcherTest {
  private static final int MAX_IN_FLIGHT = 16;
  private static final int GROUP_COMMIT_ABOVE = 8;

  /** A Raft log that holds every entry until the test commits it, and answers each change. */
  private static final class HeldLog implements TxnBatcher.Log {
    final List<MetaTxnBatchProto> entries = new ArrayList<>();
    final List<CompletableFuture<RaftClientReply>> commits = new ArrayList<>();

    @Override
    public synchronized CompletableFuture<RaftClientReply> write(byte[] entry) {
      try {
        entries.add(MetaTxnBatchProto.parseFrom(entry));
      } catch (Exception e) {
        throw new AssertionError(e);
      }
      CompletableFuture<RaftClientReply> f = new CompletableFuture<>();
      commits.add(f);
      return f;
    }

    /** Commits entry {@code i}: each change is answered with its own path. */
    void commit(int i) {
      MetaTxnBatchReplyProto.Builder replies = MetaTxnBatchReplyProto.newBuilder();
      for (MetaTxnProto t : entries.get(i).getTxnsList()) {
        replies.addReplies(
            MetaTxnReplyProto.newBuilder()
                .setClient(
                    MetaResponseProto.newBuilder().setMessage(t.getClient().getMkdir().getPath())));
      }
      commits
          .get(i)
          .complete(
              RaftClientReply.newBuilder()
                  .setClientId(ClientId.randomId())
                  .setServerId(RaftPeerId.valueOf("m1"))
                  .setGroupId(RaftGroupId.randomId())
                  .setCallId(i)
                  .setSuccess()
                  .setMessage(LogBytes.message(replies.build().toByteArray()))
                  .build());
    }

    synchronized int written() {
      return entries.size();
    }

    int changesIn(int entry) {
      return entries.get(entry).getTxnsCount();
    }
  }

  private final HeldLog log = new HeldLog();
  private final TxnBatcher batcher =
      new TxnBatcher(log, 512, MAX_IN_FLIGHT, GROUP_COMMIT_ABOVE, seconds -> {});

  private CompletableFuture<MetaTxnReplyProto> mkdir(String path) {
    return batcher.submit(mkdirTxn(path));
  }

  private static MetaTxnProto mkdirTxn(String path) {
    return MetaTxnProto.newBuilder()
        .setClient(
            MetaRequestProto.newBuilder().setMkdir(MkdirRequestProto.newBuilder().setPath(path)))
        .build();
  }

  @Test
  void fourClientsWaitingEachForItsChangeAreLoggedAtOnceRoundAfterRound() {
    List<CompletableFuture<MetaTxnReplyProto>> replies = new ArrayList<>();
    for (int c = 0; c < 4; c++) {
      replies.add(mkdir("/c" + c + "-0"));
    }
    for (int round = 1; round <= 20; round++) {
      for (int c = 0; c < 4; c++) {
        int entry = (round - 1) * 4 + c;
        log.commit(entry);
        assertEquals(
            "/c" + c + "-" + (round - 1), replies.get(entry).join().getClient().getMessage());
        replies.add(mkdir("/c" + c + "-" + round));
        assertEquals(entry + 5, log.written(), "the client's next change goes out at once");
      }
    }
    for (int e = 0; e < log.written(); e++) {
      assertEquals(1, log.changesIn(e), "a client that waits alone is never held to fill an entry");
    }
  }

  @Test
  void byDefaultFourClientsWaitingEachForItsChangeShareEntries() {
    int alwaysGroup = MetaServerConfigKeys.Raft.GROUP_COMMIT_ABOVE.defaultValue();
    TxnBatcher grouped = new TxnBatcher(log, 512, MAX_IN_FLIGHT, alwaysGroup, seconds -> {});
    int clients = 4;
    int rounds = 20;
    int[] sent = new int[clients];
    List<CompletableFuture<MetaTxnReplyProto>> waiting = new ArrayList<>();
    for (int c = 0; c < clients; c++) {
      waiting.add(grouped.submit(mkdirTxn("/c" + c + "-" + sent[c]++)));
    }
    for (int committed = 0; committed < log.written(); committed++) {
      log.commit(committed);
      for (int c = 0; c < clients; c++) {
        if (waiting.get(c).isDone() && sent[c] < rounds) {
          waiting.set(c, grouped.submit(mkdirTxn("/c" + c + "-" + sent[c]++)));
        }
      }
    }
    assertTrue(waiting.stream().allMatch(CompletableFuture::isDone));
    int changes = 0;
    for (int e = 0; e < log.written(); e++) {
      changes += log.changesIn(e);
    }
    assertEquals(clients * rounds, changes);
    assertTrue(
        log.written() <= clients * rounds / 2 + clients,
        log.written() + " entries for " + changes + " changes: each went alone");
  }

  @Test
  void aCommittedEntryAnswersItsChangesWithoutWaitingForEarlierOnes() {
    List<CompletableFuture<MetaTxnReplyProto>> replies = new ArrayList<>();
    for (int i = 0; i < 4; i++) {
      replies.add(mkdir("/c" + i));
    }
    log.commit(2);
    assertEquals("/c2", replies.get(2).join().getClient().getMessage());
    assertFalse(replies.get(0).isDone());
  }

  @Test
  void underABacklogChangesWaitForTheEntryInFlightAndTravelTogether() {
    List<CompletableFuture<MetaTxnReplyProto>> replies = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      replies.add(mkdir("/burst" + i));
    }
    assertEquals(MAX_IN_FLIGHT, log.written(), "a burst first fills the pipeline");
    for (int e = 0; e < MAX_IN_FLIGHT; e++) {
      log.commit(e);
    }
    assertEquals(MAX_IN_FLIGHT + 1, log.written());
    assertEquals(200 - MAX_IN_FLIGHT, log.changesIn(MAX_IN_FLIGHT), "the rest went in one entry");

    // 32 clients now, each sending its next change when its last is answered
    for (int round = 0; round < 5; round++) {
      int inFlight = log.written() - 1;
      for (int c = 0; c < 32; c++) {
        replies.add(mkdir("/r" + round + "-" + c));
      }
      assertEquals(inFlight + 1, log.written(), "32 changes wait for the one entry in flight");
      log.commit(inFlight);
      assertEquals(inFlight + 2, log.written());
      assertEquals(32, log.changesIn(inFlight + 1), "and then go together");
    }
    log.commit(log.written() - 1);
    for (int i = 0; i < 200; i++) {
      assertEquals("/burst" + i, replies.get(i).join().getClient().getMessage());
    }
    assertTrue(replies.stream().allMatch(CompletableFuture::isDone));
  }

  @Test
  void aFailedEntryFailsEveryChangeItCarriedAndTheNextOnesStillGo() {
    CompletableFuture<MetaTxnReplyProto> a = mkdir("/a");
    log.commits.get(0).completeExceptionally(new IllegalStateException("not leader any more"));
    assertTrue(a.isCompletedExceptionally());

    CompletableFuture<MetaTxnReplyProto> b = mkdir("/b");
    log.commit(1);
    assertEquals("/b", b.join().getClient().getMessage());
  }
}
