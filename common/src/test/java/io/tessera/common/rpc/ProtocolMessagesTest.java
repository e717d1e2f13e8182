package io.tessera.common.rpc;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import com.google.protobuf.Message;
import io.tessera.common.proto.*;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Every request and response of every protocol survives encoding and decoding unchanged. */
class ProtocolMessagesTest {
  private static final CallerProto CALLER =
      CallerProto.newBuilder()
          .setClientId(ByteString.copyFrom(new byte[16]))
          .setAppId("app")
          .build();
  private static final LayoutPolicyProto POLICY =
      LayoutPolicyProto.newBuilder()
          .setStripeUnit(1 << 20)
          .setDataUnits(6)
          .setParityUnits(3)
          .build();
  private static final InodeProto INODE =
      InodeProto.newBuilder()
          .setId(7)
          .setType(FileTypeProto.REGULAR)
          .setMode(0644)
          .setSize(12345)
          .setMtimeMs(1)
          .setCtimeMs(2)
          .setLayout(
              LayoutProto.newBuilder()
                  .setStripeUnit(4096)
                  .setDataUnits(2)
                  .setParityUnits(1)
                  .addServers("a")
                  .addServers("b")
                  .addServers("c"))
          .build();

  @Test
  void metaMessagesRoundTrip() throws Exception {
    List<MetaRequestProto> requests =
        List.of(
            req()
                .setMkdir(
                    MkdirRequestProto.newBuilder()
                        .setPath("/a")
                        .setParents(true)
                        .setDefaultLayout(POLICY)
                        .setHasDefaultLayout(true))
                .build(),
            req()
                .setCreate(
                    CreateRequestProto.newBuilder()
                        .setPath("/a/f")
                        .setLayout(POLICY)
                        .setHasLayout(true)
                        .setOverwrite(true)
                        .addPlacement("ds-1"))
                .build(),
            req().setGetAttr(GetAttrRequestProto.newBuilder().setPath("/a")).build(),
            req()
                .setSetAttr(
                    SetAttrRequestProto.newBuilder()
                        .setFileId(7)
                        .setSetSize(true)
                        .setSize(9)
                        .setExtendOnly(true))
                .build(),
            req()
                .setReadDir(
                    ReadDirRequestProto.newBuilder().setPath("/").setStartAfter("x").setLimit(10))
                .build(),
            req()
                .setRename(RenameRequestProto.newBuilder().setSource("/a").setTarget("/b"))
                .build(),
            req()
                .setRemove(RemoveRequestProto.newBuilder().setPath("/b").setRecursive(true))
                .build(),
            req().setClusterStatus(ClusterStatusRequestProto.getDefaultInstance()).build());
    for (MetaRequestProto r : requests) {
      assertRoundTrip(r, MetaRequestProto.parseFrom(r.toByteArray()));
    }
    MetaResponseProto dir =
        MetaResponseProto.newBuilder()
            .setStatus(StatusProto.OK)
            .setEntries(
                ReadDirResponseProto.newBuilder()
                    .addEntries(DirEntryProto.newBuilder().setName("f").setInode(INODE))
                    .setMore(true))
            .build();
    assertRoundTrip(dir, MetaResponseProto.parseFrom(dir.toByteArray()));
    MetaResponseProto cluster =
        MetaResponseProto.newBuilder()
            .setStatus(StatusProto.OK)
            .setCluster(
                ClusterStatusResponseProto.newBuilder()
                    .setEpoch(3)
                    .addReplicas(MetaReplicaProto.newBuilder().setId("m1").setLeader(true))
                    .addDataServers(
                        DataServerProto.newBuilder()
                            .setId("ds-1")
                            .setState(DataServerStateProto.UP)
                            .setFreeBytes(5)))
            .build();
    assertRoundTrip(cluster, MetaResponseProto.parseFrom(cluster.toByteArray()));
    MetaResponseProto refused =
        MetaResponseProto.newBuilder()
            .setStatus(StatusProto.NOT_LEADER)
            .setLeaderHint("127.0.0.1:9862")
            .setMessage("not the leader")
            .build();
    assertRoundTrip(refused, MetaResponseProto.parseFrom(refused.toByteArray()));
  }

  @Test
  void dataMessagesRoundTrip() throws Exception {
    ShardRangeProto range =
        ShardRangeProto.newBuilder()
            .setFileId(1)
            .setStripe(2)
            .setUnit(3)
            .setOffset(4)
            .setLength(5)
            .setCoversUnit(true)
            .build();
    List<DataRequestProto> requests =
        List.of(
            DataRequestProto.newBuilder()
                .setCaller(CALLER)
                .setWrite(WriteShardsRequestProto.newBuilder().addRanges(range).setSync(true))
                .build(),
            DataRequestProto.newBuilder()
                .setCaller(CALLER)
                .setRead(ReadShardsRequestProto.newBuilder().addRanges(range))
                .build(),
            DataRequestProto.newBuilder()
                .setDeleteFile(DeleteFileRequestProto.newBuilder().setFileId(9))
                .build(),
            DataRequestProto.newBuilder()
                .setTruncate(
                    TruncateFileRequestProto.newBuilder()
                        .setFileId(9)
                        .setStripe(2)
                        .addKeepLengths(100)
                        .addKeepLengths(0))
                .build(),
            DataRequestProto.newBuilder().setSync(SyncRequestProto.getDefaultInstance()).build());
    for (DataRequestProto r : requests) {
      assertRoundTrip(r, DataRequestProto.parseFrom(r.toByteArray()));
    }
    DataResponseProto read =
        DataResponseProto.newBuilder()
            .setStatus(StatusProto.OK)
            .setRead(
                ReadShardsResponseProto.newBuilder()
                    .addStates(ShardStateProto.SHARD_STORED)
                    .addStoredLengths(4096)
                    .addStates(ShardStateProto.SHARD_ABSENT)
                    .addStoredLengths(0))
            .build();
    assertRoundTrip(read, DataResponseProto.parseFrom(read.toByteArray()));
  }

  @Test
  void heartbeatMessagesRoundTrip() throws Exception {
    HeartbeatRequestProto hb =
        HeartbeatRequestProto.newBuilder()
            .setServerId("ds-1")
            .setAddress("127.0.0.1:9880")
            .setCapacityBytes(10)
            .setFreeBytes(5)
            .setUsedBytes(1)
            .build();
    assertRoundTrip(hb, HeartbeatRequestProto.parseFrom(hb.toByteArray()));
    HeartbeatResponseProto r =
        HeartbeatResponseProto.newBuilder()
            .setStatus(StatusProto.OK)
            .setEpoch(4)
            .setHeartbeatIntervalMs(1000)
            .build();
    assertRoundTrip(r, HeartbeatResponseProto.parseFrom(r.toByteArray()));
  }

  private static MetaRequestProto.Builder req() {
    return MetaRequestProto.newBuilder().setCaller(CALLER).setCallId(42);
  }

  private static void assertRoundTrip(Message sent, Message received) {
    assertThat(received).isEqualTo(sent);
    assertThat(received.toByteArray()).isEqualTo(sent.toByteArray());
  }
}
