import QRCode from 'qrcode'
import { useEffect, useState } from 'react'

/** A QR code drawn here in the browser (the qrcode package), so the secret it holds never leaves the page. */
export function QrCode({ text, label }: { text: string; label: string }) {
  const [src, setSrc] = useState<string | undefined>(undefined)
  useEffect(() => {
    let current = true
    QRCode.toDataURL(text, { margin: 1, width: 192, errorCorrectionLevel: 'M' })
      .then((url) => current && setSrc(url))
      .catch(() => current && setSrc(undefined))
    return () => {
      current = false
    }
  }, [text])
  return src ? (
    <img className="qr-code" src={src} width={192} height={192} alt={label} />
  ) : (
    <div className="qr-code" role="img" aria-label={label} />
  )
}
