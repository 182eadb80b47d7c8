import QRCode from "qrcode";

/**
 * The otpauth:// URI of an authenticator app being enrolled as a QR code for the app to scan: a PNG data URL (the
 * dashboard's policy allows data: images), drawn on the server so no QR code runs in the browser. Error correction
 * M and a four-module quiet zone, as phone cameras read best; 4 pixels a module keeps it sharp at its shown size.
 */
export async function totpQrCode(uri: string): Promise<string> {
  return QRCode.toDataURL(uri, { type: "image/png", errorCorrectionLevel: "M", margin: 4, scale: 4, color: { dark: "#000000", light: "#ffffff" } });
}
