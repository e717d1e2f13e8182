package io.tessera.nfs.export;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.tessera.nfs.oncrpc.UnixCredential;
import java.net.InetAddress;
import org.junit.jupiter.api.Test;

/** /etc/exports as an operator writes it. */
class ExportsTest {
  private static InetAddress at(String a) throws Exception {
    return InetAddress.getByName(a);
  }

  @Test
  void clientsOptionsCommentsAndContinuedLinesReadAsExportfsReadsThem() throws Exception {
    Exports e =
        Exports.parse(
            "# cluster exports\n"
                + "/data  10.0.0.0/8(rw,no_subtree_check) \\\n"
                + "       192.168.1.7(ro,all_squash,anonuid=1000,anongid=100)\n"
                + "/      ::1(rw,no_root_squash) *(ro)\n");
    Export data = e.byPath("/data").orElseThrow();
    assertThat(data.ruleFor(at("10.1.2.3")).orElseThrow().readWrite()).isTrue();
    ClientRule squashed = data.ruleFor(at("192.168.1.7")).orElseThrow();
    assertThat(squashed.readWrite()).isFalse();
    assertThat(squashed.effective(new UnixCredential(5, 5, new int[0], "h")).uid()).isEqualTo(1000);
    assertThat(data.ruleFor(at("192.168.1.8"))).as("not listed").isEmpty();
    Export root = e.byPath("/").orElseThrow();
    assertThat(root.ruleFor(at("::1")).orElseThrow().rootSquash()).isFalse();
    ClientRule anyone = root.ruleFor(at("172.16.0.1")).orElseThrow();
    assertThat(anyone.readWrite()).as("ro is the default and was asked").isFalse();
    assertThat(anyone.effective(new UnixCredential(0, 0, new int[0], "h")).uid())
        .as("root_squash is the default")
        .isEqualTo(ClientRule.NOBODY);
  }

  @Test
  void theDefaultLocalExportServesOnlyThisMachine() throws Exception {
    Export all = Exports.parse(Exports.LOCAL).byPath("/").orElseThrow();
    assertThat(all.ruleFor(at("127.0.0.1"))).isPresent();
    assertThat(all.ruleFor(at("::1"))).isPresent();
    assertThat(all.ruleFor(at("127.0.0.2"))).isEmpty();
    assertThat(all.ruleFor(at("10.0.0.1"))).isEmpty();
  }

  @Test
  void exportIdsAreTheSameOnEveryGatewayAndFsidOverridesThem() {
    int a = Exports.parse("/data *(rw)").byPath("/data").orElseThrow().id();
    int b = Exports.parse("/x *(ro)\n/data 10.0.0.0/8(rw)").byPath("/data").orElseThrow().id();
    assertThat(a).isEqualTo(b);
    assertThat(Exports.parse("/data *(rw,fsid=7)").byPath("/data").orElseThrow().id()).isEqualTo(7);
  }

  @Test
  void mistakesNameTheLineAndWhatWasExpected() {
    assertThatThrownBy(() -> Exports.parse("/a *(rw)\n/b *(rw,nosuch)"))
        .hasMessageContaining("line 2")
        .hasMessageContaining("unknown option 'nosuch'");
    assertThatThrownBy(() -> Exports.parse("/a host.example.com(rw)"))
        .hasMessageContaining("host names are not looked up");
    assertThatThrownBy(() -> Exports.parse("/a 10.0.0.0/33(rw)")).hasMessageContaining("prefix");
    assertThatThrownBy(() -> Exports.parse("data *(rw)")).hasMessageContaining("absolute");
    assertThatThrownBy(() -> Exports.parse("/a *(rw,fsid=1)\n/b *(rw,fsid=1)"))
        .hasMessageContaining("same fsid");
    assertThatThrownBy(() -> Exports.parse("# nothing\n")).hasMessageContaining("no exports");
  }
}
