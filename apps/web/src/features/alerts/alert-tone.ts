/** A short two-note chime made with Web Audio (no audio file). Failures are only logged. */
let context: AudioContext | undefined;

export function playAlertTone(): void {
  try {
    const Ctor = window.AudioContext;
    if (!Ctor) return;
    context ??= new Ctor();
    const ctx = context;
    // Browsers start a context suspended until the page had a gesture; then this is silent.
    if (ctx.state === 'suspended') void ctx.resume().catch(() => {});
    const now = ctx.currentTime;
    const gain = ctx.createGain();
    gain.connect(ctx.destination);
    gain.gain.setValueAtTime(0.0001, now);
    gain.gain.exponentialRampToValueAtTime(0.15, now + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + 0.35);
    for (const [freq, start] of [
      [880, 0],
      [1320, 0.12],
    ] as const) {
      const osc = ctx.createOscillator();
      osc.type = 'sine';
      osc.frequency.setValueAtTime(freq, now + start);
      osc.connect(gain);
      osc.start(now + start);
      osc.stop(now + start + 0.2);
    }
  } catch (err) {
    console.error('Alert tone failed:', err);
  }
}
