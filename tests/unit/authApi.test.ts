import { describe, expect, it } from 'vitest';
import {
  activateUser,
  checkResetPasswordKey,
  getCredential,
  getCsrfToken,
  getLogout,
  postLogin,
  putPassword,
  sendOtp,
  sendResetPasswordEmail,
  ssoStartUrl,
  verifyOtp,
  verifyUserEmail,
} from '../../src/api/auth';
import { createApiClient } from '../../src/api/client';
import { ApiError } from '../../src/api/errors';

function clientAnswering(status: number, body: unknown) {
  const requests: Request[] = [];
  const client = createApiClient(
    async (request) => {
      requests.push(request);
      return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
    },
    { baseUrl: 'http://localhost' },
  );
  return { client, requests };
}

describe('auth calls', () => {
  it('returns the body of a 2xx answer', async () => {
    expect(await getCsrfToken({ client: clientAnswering(200, { csrfToken: 'abc' }).client })).toBe('abc');
    expect(await getLogout({ client: clientAnswering(200, { success: true, redirectUrl: '/bye' }).client })).toEqual({
      success: true,
      redirectUrl: '/bye',
    });
  });

  it('posts the login body as given', async () => {
    const { client, requests } = clientAnswering(200, { ok: true });
    await postLogin({ username: 'alice', password: 'pw' }, { client });
    expect(requests[0]?.method).toBe('POST');
    expect(await requests[0]?.json()).toEqual({ username: 'alice', password: 'pw' });
  });

  it('throws an ApiError with the status and the server message', async () => {
    const { client } = clientAnswering(401, { statusCode: 401, error: 'Unauthorized', message: 'Please sign in.' });
    const failure = getCredential({ client });
    await expect(failure).rejects.toBeInstanceOf(ApiError);
    await expect(failure).rejects.toMatchObject({ status: 401, serverMessage: 'Please sign in.' });
  });

  it('throws an ApiError without a message when the body has none', async () => {
    const { client } = clientAnswering(500, 'oops');
    await expect(postLogin({ username: 'a', password: 'b' }, { client })).rejects.toMatchObject({
      status: 500,
      serverMessage: undefined,
    });
  });
});

describe('sign-in flow calls', () => {
  it('reads the one-time code answers, false on any failure (§8)', async () => {
    expect(await sendOtp({ client: clientAnswering(200, { success: true }).client })).toBe(true);
    expect(
      await sendOtp({ client: clientAnswering(401, { statusCode: 401, message: 'Please sign in.' }).client }),
    ).toBe(false);
    const { client, requests } = clientAnswering(200, { success: false });
    expect(await verifyOtp('123456', { client })).toBe(false);
    expect(requests[0]?.method).toBe('POST');
    expect(new URL(requests[0]?.url ?? '').pathname).toBe('/api/verifyOtp');
    expect(await requests[0]?.json()).toEqual({ code: '123456' });
    expect(await verifyOtp('123456', { client: clientAnswering(500, {}).client })).toBe(false);
  });

  it('throws a one-time code call refused for too many attempts, with the server’s message', async () => {
    const refused = { statusCode: 429, message: 'Too many wrong codes. Please try again in 15 minutes.' };
    await expect(verifyOtp('123456', { client: clientAnswering(429, refused).client })).rejects.toMatchObject({
      status: 429,
      serverMessage: refused.message,
    });
    await expect(sendOtp({ client: clientAnswering(429, refused).client })).rejects.toMatchObject({ status: 429 });
  });

  it('puts the password change and throws the 400 message', async () => {
    const { client, requests } = clientAnswering(200, { success: true });
    await putPassword({ validationKey: 'k', newPassword: 'abcdefghi1' }, { client });
    expect(requests[0]?.method).toBe('PUT');
    expect(await requests[0]?.json()).toEqual({ validationKey: 'k', newPassword: 'abcdefghi1' });
    const refused = clientAnswering(400, { statusCode: 400, message: 'The current password is incorrect.' });
    await expect(
      putPassword({ currentPassword: 'x', newPassword: 'abcdefghi1' }, { client: refused.client }),
    ).rejects.toMatchObject({
      status: 400,
      serverMessage: 'The current password is incorrect.',
    });
  });

  it('sends the reset e-mail request and checks a key in the query', async () => {
    const mail = clientAnswering(200, { success: true });
    await sendResetPasswordEmail('alice@mall.example', { client: mail.client });
    expect(await mail.requests[0]?.json()).toEqual({ email: 'alice@mall.example' });
    const check = clientAnswering(200, { success: false });
    expect(await checkResetPasswordKey('a b&c', { client: check.client })).toBe(false);
    expect(new URL(check.requests[0]?.url ?? '').searchParams.get('validationKey')).toBe('a b&c');
  });

  it('verifies the invited e-mail (false on failure) and activates the account', async () => {
    expect(
      await verifyUserEmail(
        { email: 'a@b.example', validationKey: 'k' },
        { client: clientAnswering(200, { success: true }).client },
      ),
    ).toBe(true);
    expect(
      await verifyUserEmail({ email: 'a@b.example', validationKey: 'k' }, { client: clientAnswering(400, {}).client }),
    ).toBe(false);
    const { client, requests } = clientAnswering(200, { success: true });
    await activateUser({ validationKey: 'k', password: 'abcdefghi1' }, { client });
    expect(await requests[0]?.json()).toEqual({ validationKey: 'k', password: 'abcdefghi1' });
  });

  it('builds the single sign-on address for a domain', () => {
    expect(ssoStartUrl('mall.example')).toBe('/api/login?domain=mall.example');
  });
});
