/** Fixture payloads shared by the conformance tools, resources and prompts. */

/** A 1x1 red PNG. */
export const RED_PIXEL_PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC";

/** 16 samples of silence: 8 kHz, 8-bit, mono PCM WAV. */
export const SILENT_WAV = "UklGRjQAAABXQVZFZm10IBAAAAABAAEAQB8AAEAfAAABAAgAZGF0YRAAAACAgICAgICAgICAgICAgICA";

