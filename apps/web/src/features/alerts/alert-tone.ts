/** A short two-note chime made with Web Audio (no audio file). Failures are only logged. */
let context: AudioContext | undefined;

function audio(): AudioContext | undefined {
  const Ctor = window.AudioContext;
  if (!Ctor) return undefined;
  context ??= new Ctor();
  // Browsers keep a context suspended until the page had a gesture; resuming then is allowed.
  if (context.state === 'suspended') void context.resume().catch(() => {});
  return context;
}

/**
 * Browsers let a page make sound only after a click or key press: the first one anywhere
 * unlocks the context, so a later alert, arriving with no gesture, is heard. Returns the undo.
 */
export function unlockAlertToneOnGesture(): () => void {
  const events = ['pointerdown', 'keydown'] as const;
  const unlock = () => {
    try {
      audio();
    } catch (err) {
      console.error('Alert tone failed:', err);
    }
    for (const e of events) window.removeEventListener(e, unlock);
  };
  for (const e of events) window.addEventListener(e, unlock, { once: true, passive: true });
  return () => {
    for (const e of events) window.removeEventListener(e, unlock);
  };
}

export function playAlertTone(): void {
  try {
    const ctx = audio();
    if (!ctx) return;
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
