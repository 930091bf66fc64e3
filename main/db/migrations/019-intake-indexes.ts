// Intake at mailbox scale (issue 19): de-duplication and threading look facts up by index instead of reading
// the whole case per message. MinHash signatures are cut into 16 bands of 4 minima; two signatures agreeing
// on at least 52 of 64 minima (similarity >= 0.8) share a whole band, so the band table finds every
// near-duplicate candidate. A band's key packs the band number and 12 bits of each of its 4 minima (equal
// bands give equal keys; the few unequal bands sharing a key are weeded out by the full comparison).
// intake_message_refs lists the Message-IDs each message names (In-Reply-To, References), so the messages
// answering a new one are found without reading every message of the case.
export const intakeIndexes = `
CREATE INDEX document_intake_case_original ON document_intake(case_id, original_sha256);
CREATE INDEX document_intake_case_subject ON document_intake(case_id, subject_key) WHERE subject_key IS NOT NULL;
CREATE TABLE intake_minhash_bands (
  case_id INTEGER NOT NULL,
  band_key INTEGER NOT NULL,
  document_id INTEGER NOT NULL REFERENCES documents(id),
  PRIMARY KEY (case_id, band_key, document_id)
) STRICT, WITHOUT ROWID;
CREATE TABLE intake_message_refs (
  case_id INTEGER NOT NULL,
  ref TEXT NOT NULL,
  document_id INTEGER NOT NULL REFERENCES documents(id),
  PRIMARY KEY (case_id, ref, document_id)
) STRICT, WITHOUT ROWID;
WITH RECURSIVE bands(b) AS (SELECT 0 UNION ALL SELECT b + 1 FROM bands WHERE b < 15)
INSERT OR IGNORE INTO intake_minhash_bands (case_id, band_key, document_id)
SELECT i.case_id,
  b * 281474976710656
    + (json_extract(i.minhash, '$[' || (b * 4) || ']') & 4095) * 68719476736
    + (json_extract(i.minhash, '$[' || (b * 4 + 1) || ']') & 4095) * 16777216
    + (json_extract(i.minhash, '$[' || (b * 4 + 2) || ']') & 4095) * 4096
    + (json_extract(i.minhash, '$[' || (b * 4 + 3) || ']') & 4095),
  i.document_id
FROM document_intake i JOIN documents d ON d.id = i.document_id, bands
WHERE i.minhash IS NOT NULL AND i.status = 'converted' AND d.duplicate_of IS NULL;
INSERT OR IGNORE INTO intake_message_refs (case_id, ref, document_id)
SELECT d.case_id, r.value, d.id FROM documents d, json_each(d.email, '$.references') r
WHERE d.email IS NOT NULL AND json_valid(d.email) AND r.type = 'text'
UNION
SELECT d.case_id, json_extract(d.email, '$.in_reply_to'), d.id FROM documents d
WHERE d.email IS NOT NULL AND json_valid(d.email) AND json_type(d.email, '$.in_reply_to') = 'text';
`;
