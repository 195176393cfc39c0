// 9×9 engine tests (owned by the 9×9 engine work).
