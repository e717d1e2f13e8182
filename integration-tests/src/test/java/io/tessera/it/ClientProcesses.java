package io.tessera.it;

import io.tessera.localcluster.ClusterPlan;
import java.util.ArrayList;
import java.util.List;

/** The command that runs a test's client program as a process of its own, as the admin user. */
public final class ClientProcesses {
  private ClientProcesses() {}

  public static List<String> command(ClusterPlan plan, Class<?> main, String... args) {
    List<String> cmd = new ArrayList<>();
    cmd.add(ProcessHandle.current().info().command().orElse("java"));
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add("-Dtessera.security.credentials=" + plan.adminCredentials());
    cmd.add(main.getName());
    cmd.addAll(List.of(args));
    return cmd;
  }
}
