import { phrases, type KeywordSet } from "./types.js";

export const vi: KeywordSet = {
  lang: "vi",
  name: "Vietnamese",
  match: "words",
  patterns: phrases(`
    như thế nào | thế nào | ở đâu | tại đâu | file nào | tệp nào | hàm nào | lớp nào | phương thức nào | module nào | ai gọi
    gọi bởi | được gọi | luồng | luồng dữ liệu | vòng đời | điểm vào | điều gì xảy ra | chuyện gì xảy ra | ảnh hưởng
    phụ thuộc | kiến trúc | cấu trúc | được định nghĩa | định nghĩa | mối quan hệ
  `),
};
