package io.tessera.common.rpc;

/** The protocols a Tessera endpoint may serve; one schema file each. */
public enum Service {
  /** meta.proto: client to meta-server. */
  META(1),
  /** heartbeat.proto: data-server to meta-server. */
  HEARTBEAT(2),
  /** data.proto: client to data-server. */
  DATA(3),
  /** qos.proto: between QoS proxies, and operator to proxy. */
  QOS(4);

  private final byte code;

  Service(int code) {
    this.code = (byte) code;
  }

  public byte code() {
    return code;
  }

  /** The service with this wire code, or null when the code names none. */
  public static Service fromCode(byte code) {
    for (Service s : values()) {
      if (s.code == code) {
        return s;
      }
    }
    return null;
  }
}
