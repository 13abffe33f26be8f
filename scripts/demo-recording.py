#!/usr/bin/env python3
"""Makes the demo's stand-up recording: each line spoken by its own flite voice after a second
and a half of silence, joined into one 16 kHz mono WAV file. Prints each turn's start (seconds).
Usage: demo-recording.py OUT.wav voice:text [voice:text ...]"""
import os, subprocess, sys, tempfile, wave

out_path, turns = sys.argv[1], sys.argv[2:]
out = wave.open(out_path, "wb")
out.setnchannels(1); out.setsampwidth(2); out.setframerate(16000)
at = 0.0
with tempfile.TemporaryDirectory() as tmp:
    for i, turn in enumerate(turns):
        voice, text = turn.split(":", 1)
        part = os.path.join(tmp, f"{i}.wav")
        subprocess.run(["flite", "-voice", voice, "-t", text, "-o", part], check=True)
        w = wave.open(part)
        data = b"\x00\x00" * 24000 + w.readframes(w.getnframes())
        out.writeframes(data)
        print(f"{at:.1f}")
        at += len(data) / 32000
out.writeframes(b"\x00\x00" * 16000)
out.close()
