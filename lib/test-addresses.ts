import type { PostalAddress } from "./postal-address";

/** Addresses and names the printed documents' tests draw: every script Consign prints, and two countries' own formats. */

export const SCRIPT_NAMES = ["Müller-Łukasiewicz", "Şükrü Yılmaz", "Γιώργος Παπαδόπουλος", "Иван Смирнов", "山田 太郎", "张伟", "김민준"];

export const GERMAN_ADDRESS: PostalAddress & { phone: string } = {
  name: "Jürgen Müller",
  company: "",
  address1: "Invalidenstraße 117",
  address2: "",
  city: "Berlin",
  state: "",
  zip: "10115",
  country: "DE",
  phone: "030 1234567",
};

export const JAPANESE_ADDRESS: PostalAddress & { phone: string } = {
  name: "山田 太郎",
  company: "",
  address1: "神南1-2-3",
  address2: "",
  city: "渋谷区",
  state: "東京都",
  zip: "150-0041",
  country: "JP",
  phone: "03-1234-5678",
};

/** How JAPANESE_ADDRESS prints: from the postcode and prefecture down, the country last, the phone international. */
export const JAPANESE_ADDRESS_PRINTED = ["〒150-0041", "東京都", "渋谷区神南1-2-3", "山田 太郎", "Japan", "+81 3 1234 5678"];
