// Voice on/off (off stops playback at once) and the voice picker; says when the browser's own speech is used.
import { useId } from "react";
import { VOICES } from "../../../worker/features/chat/rules/chat";
import type { Voice } from "./use-voice";
import { VolumeIcon, VolumeOffIcon } from "../../design/icons";
import "./chat.css";

export function VoiceControls({ voice }: { voice: Voice }) {
  const pickerId = useId();
  return (
    <div className="chat-voice">
      <button
        type="button"
        className={voice.enabled ? "chat-tool is-on" : "chat-tool"}
        aria-pressed={voice.enabled}
        onClick={() => voice.setEnabled(!voice.enabled)}
        title={voice.enabled ? "Turn voice off" : "Turn voice on"}
      >
        {voice.enabled ? <VolumeIcon size="sm" /> : <VolumeOffIcon size="sm" />}
        <span>{voice.enabled ? "Voice on" : "Voice off"}</span>
      </button>
      {voice.enabled && !voice.browserSpeech ? (
        <>
          <label className="visually-hidden" htmlFor={pickerId}>
            Voice
          </label>
          <select id={pickerId} className="chat-voice-picker" value={voice.voiceId} onChange={(e) => voice.setVoiceId(e.target.value)}>
            {(["female", "male"] as const).map((gender) => (
              <optgroup key={gender} label={gender === "female" ? "Female" : "Male"}>
                {VOICES.filter((v) => v.gender === gender).map((v) => (
                  <option key={v.id} value={v.id}>
                    {v.name}
                  </option>
                ))}
              </optgroup>
            ))}
          </select>
        </>
      ) : null}
      {voice.enabled && voice.browserSpeech ? <span className="chat-voice-note" title={voice.browserReason ?? undefined}>{voice.browserReason ? "Browser voice: voice budget used" : "Browser voice"}</span> : null}
    </div>
  );
}
