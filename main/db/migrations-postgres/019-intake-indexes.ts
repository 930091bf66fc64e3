// PostgreSQL twin of migrations/019-intake-indexes.ts (translation rules in index.ts).
// Intake at mailbox scale (issue 19): de-duplication and threading look facts up by index instead of reading
// the whole case per message; the band keys are computed exactly as on SQLite (see that file).
export const intakeIndexes = `
CREATE INDEX document_intake_case_original ON document_intake(case_id, original_sha256);
CREATE INDEX document_intake_case_subject ON document_intake(case_id, subject_key) WHERE subject_key IS NOT NULL;
CREATE TABLE intake_minhash_bands (
  case_id BIGINT NOT NULL,
  band_key BIGINT NOT NULL,
  document_id BIGINT NOT NULL REFERENCES documents(id),
  PRIMARY KEY (case_id, band_key, document_id)
);
CREATE TABLE intake_message_refs (
  case_id BIGINT NOT NULL,
  ref TEXT COLLATE "C" NOT NULL,
  document_id BIGINT NOT NULL REFERENCES documents(id),
  PRIMARY KEY (case_id, ref, document_id)
);
INSERT INTO intake_minhash_bands (case_id, band_key, document_id)
SELECT i.case_id,
  b * 281474976710656
    + (((i.minhash::jsonb ->> (b * 4))::bigint) & 4095) * 68719476736
    + (((i.minhash::jsonb ->> (b * 4 + 1))::bigint) & 4095) * 16777216
    + (((i.minhash::jsonb ->> (b * 4 + 2))::bigint) & 4095) * 4096
    + (((i.minhash::jsonb ->> (b * 4 + 3))::bigint) & 4095),
  i.document_id
FROM document_intake i JOIN documents d ON d.id = i.document_id, generate_series(0, 15) AS b
WHERE i.minhash IS NOT NULL AND i.status = 'converted' AND d.duplicate_of IS NULL
ON CONFLICT DO NOTHING;
INSERT INTO intake_message_refs (case_id, ref, document_id)
SELECT d.case_id, r.value, d.id FROM documents d,
  jsonb_array_elements_text(CASE WHEN jsonb_typeof(d.email::jsonb -> 'references') = 'array' THEN d.email::jsonb -> 'references' ELSE '[]'::jsonb END) AS r(value)
WHERE d.email IS NOT NULL
UNION
SELECT d.case_id, d.email::jsonb ->> 'in_reply_to', d.id FROM documents d
WHERE d.email IS NOT NULL AND jsonb_typeof(d.email::jsonb -> 'in_reply_to') = 'string'
ON CONFLICT DO NOTHING;
`;
