def test_smoke(app, client, club):
    club.play(["Ann", "Bob", "Cid"], [1, 2, 2])
    club.play(["Ann", "Bob", "Dee"], [2, 1, 3])
    for url in ["/people", "/people/1", "/people/1?vs=2", "/club", "/club/evenings/1", "/club/seasons/new"]:
        r = client.get(url)
        assert r.status_code == 200, (url, r.get_data(as_text=True)[-3000:])
    r = client.post("/club/seasons/new", data={"name": "Spring", "kind": "placing", "place_1": "10", "place_2": "6", "place_3": "4", "evening": "1"})
    assert r.status_code == 303, r.get_data(as_text=True)[-2000:]
    for url in ["/club/seasons/1", "/club/seasons/1/evenings/1", "/club/seasons/1/print/a4", "/club/seasons/1/print/80mm", "/club/seasons/1/standings.csv", "/club/seasons/1/qr.svg", "/club/seasons/1/evenings/1/print/58mm", "/tables/new/razzia"]:
        r = client.get(url)
        assert r.status_code == 200, (url, r.get_data(as_text=True)[-3000:])
    print(client.get("/club/seasons/1/standings.csv").get_data(as_text=True))
