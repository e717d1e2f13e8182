package io.tessera.cli.qos;

import io.tessera.cli.ConnectedCommand;
import io.tessera.client.TesseraFileSystem;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code tessera qos reset APP}. */
@Command(
    name = "reset",
    mixinStandardHelpOptions = true,
    description = "Put an application back to the defaults: weight 1, no reservation, no limit.")
public final class QosResetCommand extends ConnectedCommand {
  @Parameters(paramLabel = "APP", description = "the application")
  String app;

  @Override
  protected void checkArguments() {
    QosArguments.checkApp(app);
  }

  @Override
  protected int run(TesseraFileSystem fs) throws Exception {
    fs.admin().qos().reset(app);
    out().println(app + ": weight 1, no reservation, no limit");
    return 0;
  }
}
