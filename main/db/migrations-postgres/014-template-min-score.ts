// PostgreSQL twin of migrations/014-template-min-score.ts (translation rules in index.ts).
// Detection templates choose the minimum confidence of the suggestions they make (issue 20); NULL keeps the
// job's default (0.5). A job's own min_score still wins over the template's.
export const templateMinScore = `
ALTER TABLE redaction_templates ADD COLUMN min_score DOUBLE PRECISION CHECK (min_score IS NULL OR (min_score >= 0 AND min_score <= 1));
`;
