package io.tessera.cli.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Decides when untimed warm-up passes may stop: a cluster just started runs its first passes slower
 * while each server JVM (a ninth of the traffic each, on nine data servers) and the client are
 * still compiling their I/O paths. Warm-up goes on until a pass's rate is within {@code tolerance}
 * of the pass before it, or {@code maxPasses} passes were run. The benches and the failure suite's
 * workload warm up with it.
 */
public final class SteadyState {
  private final int maxPasses;
  private final double tolerance;
  private final List<Double> rates = new ArrayList<>();

  public SteadyState(int maxPasses, double tolerance) {
    if (maxPasses < 1 || tolerance <= 0) {
      throw new IllegalArgumentException("at least one pass and a positive tolerance");
    }
    this.maxPasses = maxPasses;
    this.tolerance = tolerance;
  }

  /**
   * From a {@code --warmup-passes} value: {@code auto} (until two passes agree within 10 %, at most
   * 6) or a number of passes.
   */
  static SteadyState of(String passes) {
    if (passes.equals("auto")) {
      return new SteadyState(6, 0.10);
    }
    try {
      int n = Integer.parseInt(passes);
      if (n >= 1) {
        return fixed(n);
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException(
        "--warmup-passes=" + passes + ": expected auto or a number >= 1");
  }

  /** Exactly {@code passes} passes, whatever their rates. */
  static SteadyState fixed(int passes) {
    return new SteadyState(passes);
  }

  private SteadyState(int passes) {
    if (passes < 1) {
      throw new IllegalArgumentException("at least one pass");
    }
    this.maxPasses = passes;
    this.tolerance = Double.NaN;
  }

  /** One untimed pass; returns its rate. */
  public interface Pass {
    double run() throws Exception;
  }

  /** Runs {@code pass} until the rates settle, or as many times as this was asked for. */
  public void warmUp(Pass pass) throws Exception {
    while (another(pass.run())) {
      // the next pass
    }
  }

  /** Records a pass's rate; whether another pass is needed. */
  boolean another(double rate) {
    rates.add(rate);
    if (rates.size() >= maxPasses) {
      return false;
    }
    if (rates.size() < 2 || Double.isNaN(tolerance)) {
      return true;
    }
    double before = rates.get(rates.size() - 2);
    return Math.abs(rate - before) > tolerance * before;
  }

  /** The rates so far as "167, 317, 388". */
  String ratesText() {
    return rates.stream()
        .map(r -> String.format(Locale.ROOT, "%.0f", r))
        .collect(Collectors.joining(", "));
  }

  /** The rates recorded so far, in order. */
  public List<Double> rates() {
    return List.copyOf(rates);
  }
}
