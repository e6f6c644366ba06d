import { CorsPolicy } from './cors';

describe('CorsPolicy.allowedOrigin', () => {
  it('allows exactly the listed origins, echoing the one asked', () => {
    const policy = new CorsPolicy(['https://app.example', 'http://localhost:3000']);
    expect(policy.allowedOrigin('https://app.example')).toBe('https://app.example');
    expect(policy.allowedOrigin('http://localhost:3000')).toBe('http://localhost:3000');
    for (const other of [
      'https://app.example.evil',
      'http://app.example',
      'https://app.example:8443',
      'http://localhost:3001',
      'null',
      '',
    ]) {
      expect(policy.allowedOrigin(other)).toBeUndefined();
    }
    expect(policy.allowedOrigin(undefined)).toBeUndefined();
  });

  it('allows any origin with *, answering *', () => {
    expect(new CorsPolicy(['*']).allowedOrigin('https://anything.example')).toBe('*');
  });
});
