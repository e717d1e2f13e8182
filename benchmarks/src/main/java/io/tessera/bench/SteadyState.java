package io.tessera.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Decides when untimed warm-up passes may stop: a cluster just started runs its first passes slower
 * while each server JVM (a ninth of the traffic each, on nine data servers) and the client are
 * still compiling their I/O paths. Warm-up goes on until a pass's rate is within {@code tolerance}
 * of the pass before it, or {@code maxPasses} passes were run. A pass may measure several rates (a
 * write and a read): each must settle, as a read path still compiling after the writes settled
 * makes the first timed reads slower than the rest. The benches and the failure suite's workload
 * warm up with it.
 */
public final class SteadyState {
  private final int maxPasses;
  private final double tolerance;

  /** Each pass's rates; the first is the one {@link #rates()} reports. */
  private final List<double[]> passes = new ArrayList<>();

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

  /** One untimed pass measuring several rates (NaN: not measured); returns them. */
  public interface MultiPass {
    double[] run() throws Exception;
  }

  /** Runs {@code pass} until the rates settle, or as many times as this was asked for. */
  public void warmUp(Pass pass) throws Exception {
    warmUpAll(() -> new double[] {pass.run()});
  }

  /** Runs {@code pass} until every rate it measures settles, or as many times as asked for. */
  public void warmUpAll(MultiPass pass) throws Exception {
    while (another(pass.run())) {
      // the next pass
    }
  }

  /** Records a pass's rates; whether another pass is needed. */
  boolean another(double... rates) {
    passes.add(rates.clone());
    if (passes.size() >= maxPasses) {
      return false;
    }
    if (passes.size() < 2 || Double.isNaN(tolerance)) {
      return true;
    }
    double[] before = passes.get(passes.size() - 2);
    for (int i = 0; i < rates.length && i < before.length; i++) {
      if (Math.abs(rates[i] - before[i]) > tolerance * before[i]) {
        return true; // NaN compares false: a rate not measured never asks for another pass
      }
    }
    return false;
  }

  /** The first rate of every pass so far as "167, 317, 388". */
  String ratesText() {
    return ratesText(0);
  }

  /** Rate {@code i} of every pass so far as "167, 317, 388". */
  String ratesText(int i) {
    return passes.stream()
        .map(r -> String.format(Locale.ROOT, "%.0f", r[i]))
        .collect(Collectors.joining(", "));
  }

  /** The first rate of every pass so far, in order. */
  public List<Double> rates() {
    return passes.stream().map(r -> r[0]).toList();
  }
}
