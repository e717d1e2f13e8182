package io.tessera.qos.node;

import static org.assertj.core.api.Assertions.assertThat;

import io.tessera.common.proto.CallerProto;
import io.tessera.common.proto.DataRequestProto;
import org.junit.jupiter.api.Test;

/**
 * A proxy schedules by the application a request names; names it could not tell apart, or more
 * names than it keeps, share one queue instead of growing its state.
 */
class RequestAppsTest {
  private static DataRequestProto from(String app) {
    return DataRequestProto.newBuilder().setCaller(CallerProto.newBuilder().setAppId(app)).build();
  }

  @Test
  void oddOrTooManyApplicationNamesShareOneQueue() {
    RequestApps costs = new RequestApps();
    assertThat(costs.app(from(""))).isEqualTo(RequestApps.DEFAULT);
    assertThat(costs.app(from("checkpoint"))).isEqualTo("checkpoint");
    assertThat(costs.app(from("with spaces"))).isEqualTo(RequestApps.OTHER);
    assertThat(costs.app(from("x".repeat(200)))).isEqualTo(RequestApps.OTHER);
    for (int i = 0; i < RequestApps.MAX_APPS; i++) {
      costs.app(from("app-" + i));
    }
    assertThat(costs.app(from("one-too-many"))).isEqualTo(RequestApps.OTHER);
    assertThat(costs.app(from("checkpoint"))).isEqualTo("checkpoint");
  }
}
