// AWS Signature Version 4 for a browser request, with nothing but the Web Crypto API: the signed headers
// (host, x-amz-date) of a GET or of a request with a body, as API Gateway's AWS_IAM routes check them.
// https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_sigv-create-signed-request.html

const encoder = new TextEncoder();

function hex(buffer) {
  return Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, "0")).join("");
}

async function sha256(text) {
  return hex(await crypto.subtle.digest("SHA-256", encoder.encode(text)));
}

async function hmac(key, text) {
  const raw = typeof key === "string" ? encoder.encode(key) : key;
  const cryptoKey = await crypto.subtle.importKey("raw", raw, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return new Uint8Array(await crypto.subtle.sign("HMAC", cryptoKey, encoder.encode(text)));
}

// RFC 3986 percent-encoding: everything but unreserved characters
export function uriEncode(text) {
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => "%" + c.charCodeAt(0).toString(16).toUpperCase());
}

// a "+" is a space, as the API reads it
function canonicalQuery(search) {
  const pairs = search.replace(/^\?/, "").replace(/\+/g, "%20").split("&").filter((pair) => pair.length > 0).map((pair) => {
    const equals = pair.indexOf("=");
    const name = decodeURIComponent(equals < 0 ? pair : pair.slice(0, equals));
    const value = equals < 0 ? "" : decodeURIComponent(pair.slice(equals + 1));
    return [uriEncode(name), uriEncode(value)];
  });
  pairs.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
  return pairs.map(([name, value]) => name + "=" + value).join("&");
}

// every service but S3 signs the path encoded once more, segment by segment
function canonicalPath(pathname) {
  return pathname.split("/").map(uriEncode).join("/") || "/";
}

/**
 * The headers that sign a request: { authorization, "x-amz-date" } (and "x-amz-security-token" with a session token).
 * url: a URL object; body: the request body as text ("" for a GET).
 */
export async function sign({ method, url, body = "", region, service, accessKeyId, secretAccessKey, sessionToken, now = new Date() }) {
  const amzDate = now.toISOString().replace(/[-:]/g, "").replace(/\.\d{3}/, "");
  const date = amzDate.slice(0, 8);
  const headers = { host: url.host, "x-amz-date": amzDate };
  if (sessionToken) {
    headers["x-amz-security-token"] = sessionToken;
  }
  const names = Object.keys(headers).sort();
  const canonicalHeaders = names.map((name) => name + ":" + String(headers[name]).trim() + "\n").join("");
  const signedHeaders = names.join(";");
  const canonicalRequest = [method, canonicalPath(url.pathname), canonicalQuery(url.search), canonicalHeaders, signedHeaders,
    await sha256(body)].join("\n");
  const scope = `${date}/${region}/${service}/aws4_request`;
  const stringToSign = ["AWS4-HMAC-SHA256", amzDate, scope, await sha256(canonicalRequest)].join("\n");
  let key = await hmac("AWS4" + secretAccessKey, date);
  key = await hmac(key, region);
  key = await hmac(key, service);
  key = await hmac(key, "aws4_request");
  const signature = hex(await hmac(key, stringToSign));
  const signed = {
    authorization: `AWS4-HMAC-SHA256 Credential=${accessKeyId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`,
    "x-amz-date": amzDate,
  };
  if (sessionToken) {
    signed["x-amz-security-token"] = sessionToken;
  }
  return signed;
}
