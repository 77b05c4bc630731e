// The page's state in the URL fragment, which browsers never send to a server:
// `#s=` + base64url(deflate-raw(JSON)), or `#j=` + base64url(JSON) where there is no
// CompressionStream.

const toBase64Url = (bytes) => {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
};

const fromBase64Url = (text) => {
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
};

async function pipe(bytes, stream) {
  const out = new Blob([bytes]).stream().pipeThrough(stream);
  return new Uint8Array(await new Response(out).arrayBuffer());
}

// The fragment (without `#`) for `state`: {robots, agent, profile, embargo, urls}.
export async function encodeState(state) {
  const json = new TextEncoder().encode(JSON.stringify({ v: 1, ...state }));
  if (typeof CompressionStream === 'function') {
    return 's=' + toBase64Url(await pipe(json, new CompressionStream('deflate-raw')));
  }
  return 'j=' + toBase64Url(json);
}

// The state in a fragment (with or without `#`), or null if it holds none.
export async function decodeState(fragment) {
  const text = fragment.replace(/^#/, '');
  try {
    let json;
    if (text.startsWith('s=')) {
      json = await pipe(fromBase64Url(text.slice(2)), new DecompressionStream('deflate-raw'));
    } else if (text.startsWith('j=')) {
      json = fromBase64Url(text.slice(2));
    } else {
      return null;
    }
    const state = JSON.parse(new TextDecoder().decode(json));
    return {
      robots: String(state.robots ?? ''),
      agent: String(state.agent ?? ''),
      profile: state.profile === 'google' ? 'google' : 'rfc9309',
      embargo: Boolean(state.embargo),
      urls: String(state.urls ?? ''),
    };
  } catch {
    return null;
  }
}
