// The UI's one error formatter (issue 18): a sentence from anything thrown, never "[object Object]".
import { describe, expect, it } from 'vitest';
import { ApiError, errorText, plainMessage } from '../../renderer/src/api/errors.js';

describe('plainMessage', () => {
  it('reads the server envelope, Errors, pdf.js exception objects and strings', () => {
    expect(plainMessage(new ApiError(422, 'unprocessable_entity', 'the password does not open payroll.pdf; check it and try again'))).toBe('The password does not open payroll.pdf; check it and try again.');
    expect(plainMessage(new ApiError(400, 'validation_error', 'invalid', { error: { details: [{ field: 'password', message: 'is required' }] } }))).toBe('Please check: password is required.');
    expect(plainMessage(new Error('disk full'))).toBe('Disk full.');
    // pdf.js's exceptions arrive as plain objects from its worker.
    expect(plainMessage({ name: 'InvalidPDFException', message: 'Invalid PDF structure.' })).toBe('Invalid PDF structure.');
    expect(plainMessage({ name: 'PasswordException', message: 'No password given', code: 1 })).toMatch(/password-protected/);
    expect(plainMessage('the file vanished')).toBe('The file vanished.');
    expect(plainMessage({ some: 'object' })).toBe('Something went wrong. Try again.');
    for (const value of [{}, { message: { nested: true } }, [1, 2], null, undefined, 42]) expect(plainMessage(value)).not.toContain('[object');
  });

  it('errorText gives the raw reason for composing a sentence', () => {
    expect(errorText({ name: 'UnknownErrorException', message: '' })).toBe('UnknownErrorException');
    expect(errorText(new Error('bad tag'))).toBe('bad tag');
    expect(errorText({})).toBe('unknown error');
  });
});
