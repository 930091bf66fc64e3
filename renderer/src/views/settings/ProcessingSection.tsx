import { useState } from 'react';
import { getProcessingSettings, updateProcessingSettings } from '../../api/processing.js';
import { SettingsSection } from '../../components/SettingsSection.js';
import { useAction } from '../../hooks/useAction.js';
import { useLoad } from '../../hooks/useLoad.js';

/** The organization's automatic processing: new documents run scan → OCR → detection by themselves. */
export function ProcessingSection() {
  const settings = useLoad((signal) => getProcessingSettings(signal), []);
  const action = useAction();
  // The box follows the click at once; a failed save puts it back and says why.
  const [pending, setPending] = useState<boolean | null>(null);
  const on = pending ?? settings.data?.auto_process ?? false;

  const change = async (value: boolean) => {
    setPending(value);
    const saved = await action.run(`auto:${value}`, (key) => updateProcessingSettings(value, key));
    if (saved) settings.setData(saved);
    setPending(null);
  };

  return (
    <SettingsSection titleId="processing-title" title="Processing" loadError={settings.error} onRetry={settings.reload} action={action}>
      <p className="muted">
        With automatic processing on, every new document (uploads, watched folders, converted e-mail and Office files, a PDF once its password
        is given) is scanned, read by OCR where it has no text, and searched for personal information, without a click. Turning it off starts
        nothing new; documents already under way finish. Cases then use Process all or each document&apos;s buttons.
      </p>
      {settings.data && (
        <label className="check">
          <input type="checkbox" checked={on} disabled={action.busy !== null} onChange={(event) => void change(event.target.checked)} />
          <span>Process new documents automatically (scan, OCR where needed, detection)</span>
        </label>
      )}
    </SettingsSection>
  );
}
